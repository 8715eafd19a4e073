// `npm start` on a fresh checkout: build once if there is no production build yet.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync(".next/BUILD_ID")) {
  console.log("No production build yet: running `npm run build` (once; run it again to rebuild).");
  const result = spawnSync("npm", ["run", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  process.exit(result.status ?? 1);
}
