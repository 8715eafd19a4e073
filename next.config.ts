import type { NextConfig } from "next";
import { securityHeaders } from "./src/core/security-headers.mjs";

const isDev = process.env.NODE_ENV !== "production";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Loaded by Node at run time rather than bundled: the Sentry server SDK hooks Node's module and
  // diagnostics-channel machinery, which only works on the real packages.
  // zxcvbn-ts: its word lists (~10 MB of strings) are loaded once by Node, not once per server chunk
  // that bundles the password policy.
  // Better Auth, Drizzle, postgres and nodemailer: Turbopack writes a shared library into each
  // server entry's chunks, as files of identical content under different names, and Node then loads
  // and instantiates each copy (a soak's heap held Drizzle 11 times and Better Auth 4 times: ~25 MB
  // of source strings alone, plus their code and module state). As externals, Node loads each once.
  serverExternalPackages: [
    "@sentry/nextjs",
    "@sentry/node",
    "@zxcvbn-ts/core",
    "@zxcvbn-ts/language-common",
    "@zxcvbn-ts/language-en",
    "better-auth",
    "@better-auth/core",
    "@better-auth/passkey",
    "@better-auth/utils",
    "drizzle-orm",
    "postgres",
    "nodemailer",
    // The billing clock's job engine loads its SQL migrations and config from its own package files.
    "graphile-worker",
    // Copied into many server chunks the same way: decimal.js was loaded 8 times in a soak's heap
    // (430 KB of source each, plus its compiled code), pdf-lib's standard fonts twice (900 KB each).
    "decimal.js",
    "pdf-lib",
  ],
  // A separate build folder lets two builds of one checkout coexist (e.g. parallel test runs).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  typedRoutes: false,
  // Types are checked once by `npm run typecheck` (CI runs it before the tests), not again in
  // every build: `next build` is the slow step on a small machine.
  typescript: { ignoreBuildErrors: true },
  // The end-to-end build adds test-only probe pages named `page.e2e.tsx`; a normal build has none.
  pageExtensions: process.env.ABACUS_E2E_PAGES === "1" ? ["tsx", "ts", "e2e.tsx"] : ["tsx", "ts"],
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders(isDev) }];
  },
};

export default nextConfig;
