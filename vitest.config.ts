import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = {
  "@": fileURLToPath(new URL("./src", import.meta.url)),
  // `server-only` throws outside a React Server Component bundle; in tests the server modules
  // run in plain Node, which is exactly where they are meant to run.
  "server-only": fileURLToPath(new URL("./tests/support/empty.ts", import.meta.url)),
};

const INTEGRATION = ["src/**/*.int.test.ts", "scripts/**/*.int.test.ts"];

/**
 * Two projects. `unit`: pure tests, no database (`npx vitest run --project unit` needs no
 * DATABASE_URL). `integration`: `*.int.test.ts`, each file on a clone of one migrated template
 * database on whatever PostgreSQL DATABASE_URL names. `vitest run` runs both.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "src/**/*.test.tsx", "scripts/**/*.test.ts"],
          exclude: INTEGRATION,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: INTEGRATION,
          globalSetup: ["./tests/support/global-setup.ts"],
        },
      },
    ],
  },
});
