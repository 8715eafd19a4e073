// `npm start` on a fresh checkout: build once if there is no production build yet; the server
// (src/edge) is re-bundled on every start, which costs well under a second.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { bundleServer } from "./server.mjs";

if (!existsSync(".next/BUILD_ID")) {
  console.log("No production build yet: running `npm run build` (once; run it again to rebuild).");
  const result = spawnSync("npm", ["run", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  process.exit(result.status ?? 1);
}
await bundleServer();
