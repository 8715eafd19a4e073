import "server-only";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getEnv } from "./env";

type Secrets = { authSecret: string };
let cached: Secrets | undefined;

/**
 * Instance secrets. From the environment when set; for local use on the embedded database they
 * are generated once into the data folder (so they survive restarts and are shared by every
 * process on that folder). `env.ts` refuses a production deployment on an external database
 * without them.
 */
export function getSecrets(): Secrets {
  if (cached) return cached;
  const env = getEnv();
  if (env.AUTH_SECRET) {
    cached = { authSecret: env.AUTH_SECRET };
    return cached;
  }
  if (env.ABACUS_DATA_DIR) {
    const file = path.join(env.ABACUS_DATA_DIR, "secrets.json");
    if (!existsSync(file)) {
      const fresh: Secrets = { authSecret: randomBytes(32).toString("base64url") };
      try {
        writeFileSync(file, `${JSON.stringify(fresh, null, 2)}\n`, { mode: 0o600, flag: "wx" });
      } catch {
        // Another process won the race; read what it wrote.
      }
    }
    cached = JSON.parse(readFileSync(file, "utf8")) as Secrets;
    return cached;
  }
  // Tests against an external server without AUTH_SECRET (env.ts refuses it anywhere else).
  cached = { authSecret: randomBytes(32).toString("base64url") };
  return cached;
}
