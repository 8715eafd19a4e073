/**
 * Import rules (ARCHITECTURE.md, "Layers"): imports flow app → features → server | core | components, server → core.
 * Run by `npm run lint` (`npm run lint:imports`). dependency-cruiser rather than Biome's
 * noRestrictedImports because it resolves the `@/` alias and relative paths to real files, and its
 * rules can refer back to the importer's own folder (`$1`), so "a feature may not import another
 * feature's internals" is one rule, not one override per feature.
 */
module.exports = {
  forbidden: [
    {
      name: "components-import-no-feature",
      comment: "Shared components know nothing about features: pass actions and data in as props.",
      severity: "error",
      from: { path: "^src/components/" },
      to: { path: "^src/(features|app)/" },
    },
    {
      name: "features-import-no-other-feature-internals",
      comment:
        'A feature may use another feature only through its public surface: index.ts (actions, types, pure helpers), server/index.ts (server-only queries and services), or one of its top-level component files (*.tsx), each imported by its own path (ARCHITECTURE.md, "A feature\'s public surface").',
      severity: "error",
      from: { path: "^src/features/([^/]+)/" },
      to: {
        path: "^src/features/",
        pathNot: [
          "^src/features/$1/",
          "^src/features/[^/]+/(server/)?index\\.ts$",
          "^src/features/[^/]+/[^/]+\\.tsx$",
        ],
      },
    },
    {
      name: "app-imports-features-through-their-surface",
      comment:
        "Routes use a feature through its public surface: index.ts, server/index.ts, or a top-level component file (*.tsx). Listed: the features that follow it; add one when it does.",
      severity: "error",
      from: { path: "^src/app/" },
      to: {
        path: "^src/features/(account|admin|api-keys|auth|contact|dashboard|docs|home|monitoring|onboarding|organizations|outbox|pricing)/",
        pathNot: ["^src/features/[^/]+/(server/)?index\\.ts$", "^src/features/[^/]+/[^/]+\\.tsx$"],
      },
    },
    {
      name: "core-imports-only-core",
      comment: "src/core is pure domain logic: it imports only src/core and plain libraries.",
      severity: "error",
      from: { path: "^src/core/" },
      to: { path: "^src/", pathNot: "^src/core/" },
    },
    {
      name: "core-imports-no-framework-or-io",
      comment: "No React, Next, database, auth or server-only modules in src/core.",
      severity: "error",
      from: { path: "^src/core/" },
      to: {
        path: "^node_modules/(react|react-dom|next|drizzle-orm|postgres|better-auth|server-only|nodemailer|@sentry)/",
      },
    },
    {
      name: "core-does-no-io",
      comment: "No file system, processes or network in src/core outside tests.",
      severity: "error",
      from: {
        path: "^src/core/",
        pathNot: "\\.test\\.tsx?$",
      },
      to: {
        dependencyTypes: ["core"],
        path: "^(node:)?(fs|fs/promises|child_process|net|http|https|os|worker_threads)$",
      },
    },
    {
      name: "core-money-below-decimal",
      comment:
        "Money is below the expression engine: core/decimal may use core/money (money literals, conversion), never the reverse, so the two folders cannot form a loop. Shared vocabularies such as rounding modes live in core/rounding.ts.",
      severity: "error",
      from: { path: "^src/core/money/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^src/core/decimal/" },
    },
    {
      name: "server-imports-no-ui-or-feature",
      comment: "src/server is below features and UI: it imports core and libraries only.",
      severity: "error",
      from: { path: "^src/server/" },
      to: { path: "^src/(features|components|app)/" },
    },
    {
      name: "features-import-no-app",
      severity: "error",
      from: { path: "^src/(features|lib)/" },
      to: { path: "^src/app/" },
    },
    {
      name: "edge-imports-only-core-and-env-schema",
      comment:
        "src/edge is the HTTP server in front of Next.js, bundled on its own: it may use src/core, the configuration schema and libraries, never the app's server modules (which assume Next.js), features, components or routes.",
      severity: "error",
      from: { path: "^src/edge/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^src/", pathNot: ["^src/edge/", "^src/core/", "^src/server/env-schema\\.ts$"] },
    },
    {
      name: "nothing-imports-edge",
      comment: "The app never imports the HTTP server in front of it; only the server's own tests do.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/edge/" },
      to: { path: "^src/edge/" },
    },
    {
      name: "no-circular",
      comment: "Folders must not depend on each other in a loop.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.next" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
