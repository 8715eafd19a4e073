import { mkdirSync } from "node:fs";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/dev/chromium.mjs";

const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://localhost:${port}`;
/**
 * Everything the suite's server prints (stdout and stderr), started afresh by each run: the global
 * teardown checks it (tests/e2e/global-teardown.ts). E2E_SERVER_LOG moves it.
 */
export const serverLog = path.resolve(process.env.E2E_SERVER_LOG ?? `.test-data/e2e-server-${port}.log`);
mkdirSync(path.dirname(serverLog), { recursive: true });

// Run through `npm run test:e2e`: it builds the app, starts a fresh embedded PostgreSQL (or uses
// DATABASE_URL), migrates it and then runs this against `node dist/server.mjs` (the production server).
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  // After all specs: every line of the server's log is JSON and none holds a secret of the run.
  globalTeardown: "./tests/e2e/global-teardown.ts",
  webServer: {
    // The server's output goes to `serverLog` (truncated at start), not to Playwright's console.
    command: `node scripts/build/server.mjs && node dist/server.mjs > '${serverLog.replace(/'/g, "'\\''")}' 2>&1`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    // Sign-in/sign-up limits are raised for the suite, which signs in far more often than a person;
    // the limits themselves are tested at the integration level.
    env: {
      PORT: String(port),
      NODE_ENV: "production",
      APP_URL: baseURL,
      AUTH_SIGN_IN_LIMIT: "1000",
      AUTH_SIGN_UP_LIMIT: "1000",
      // The whole suite asks for mail (resets, invitations, links) from 127.0.0.1; the limits per
      // client and per recipient are integration tests.
      MAIL_PER_CLIENT_LIMIT: "100000",
      MAIL_PER_RECIPIENT_LIMIT: "1000",
      AUTH_HASH_QUEUE_PER_CLIENT: "64",
      // The whole suite browses from 127.0.0.1; the page-view limit itself is an integration test.
      PAGE_VIEWS_PER_CLIENT_LIMIT: "100000",
      // Two workers' browsers and API calls share one address; the gate itself is tested on a real
      // server in scripts/edge.test.ts.
      CLIENT_MAX_ACTIVE: "16",
      // The seller is in Germany: EU businesses elsewhere with a VAT ID are reverse-charged (coupons.spec.ts).
      SELLER_COUNTRY: "DE",
    },
    stdout: "pipe",
    stderr: "pipe",
  },
});
