// Bundles the HTTP server (src/edge, TypeScript) into one ES module, dist/server.mjs, which
// `npm start`, `npm run dev` and the end-to-end tests run with plain `node`: the app's own code
// (src/edge and the parts of src/core and src/server it imports) is compiled in, every package
// stays an import from node_modules. esbuild does it in well under a second, so every start
// re-bundles and never runs a stale server.
//
//   node scripts/build/server.mjs        (part of `npm run build`, `npm start` and `npm run dev`)
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SERVER_BUNDLE = path.join(ROOT, "dist/server.mjs");

export async function bundleServer() {
  await build({
    entryPoints: [path.join(ROOT, "src/edge/main.ts")],
    outfile: SERVER_BUNDLE,
    tsconfig: path.join(ROOT, "tsconfig.json"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    logLevel: "warning",
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await bundleServer();
}
