import * as Sentry from "@sentry/nextjs";
import { afterAll, describe, expect, it, vi } from "vitest";

// Both server runtimes take Sentry's options from one place; the edge runtime once copied them and
// lost the privacy setting, so reports from there would have carried cookies and request bodies.
describe("the edge runtime's monitoring", () => {
  afterAll(() => vi.unstubAllEnvs());

  it("keeps cookies, request bodies and user details out of reports", async () => {
    vi.stubEnv("NEXT_RUNTIME", "edge");
    vi.stubEnv("SENTRY_DSN", "https://public@sentry.example.com/1");
    vi.stubEnv("AUTH_SECRET", "instrumentation-test-secret-instrumentation-test");
    vi.stubEnv("DATABASE_URL", "postgres://abacus:x@127.0.0.1:1/abacus");
    const { register } = await import("./instrumentation");
    await register();
    const options = Sentry.getClient()?.getOptions() as Record<string, unknown> | undefined;
    expect(options?.dsn).toBe("https://public@sentry.example.com/1");
    expect(options?.dataCollection).toEqual({ cookies: false, httpBodies: [], userInfo: false });
    expect(options?.maxBreadcrumbs).toBe(100);
    await Sentry.close(0);
  });
});
