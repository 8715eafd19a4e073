import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FREE_ACCOUNT_FAILURES } from "@/core/auth/lockout";
import { createTestAuth, TEST_ORIGIN, TEST_PASSWORD } from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import { heldFor } from "../../../tests/support/held-for";
import { handleAuthHttp } from "./hardening";
import { type AuthHttpHandler, buildAuthHttpHandler } from "./http";

// A client that keeps posting to sign-in or sign-up while it is refused must cost the edge's
// memory, not Next.js (about 6 ms of CPU per refused request through the app). The app marks a 429 the
// edge may repeat only when the refusal depends on the client's address alone; an account's delay
// depends on the body (which account), so it must never be marked.
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let handler: AuthHttpHandler;

beforeAll(async () => {
  t = await createTestDatabase();
  handler = await buildAuthHttpHandler(createTestAuth(t.db, { signInLimit: 3, signUpLimit: 2 }));
});
afterAll(async () => {
  await t.drop();
});

const post = (path: string, body: unknown, ip: string) =>
  handleAuthHttp(
    new Request(`${TEST_ORIGIN}/api/auth${path}`, {
      method: "POST",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify(body),
    }),
    handler,
  );

function expectRepeatable(response: Response) {
  expect(response.status).toBe(429);
  const holds = heldFor(response);
  expect(holds).toBeGreaterThan(0);
  expect(holds).toBeLessThanOrEqual(10_000);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
}

describe("429s the edge may repeat", () => {
  it("sign-up over the client's limit is marked, with Retry-After, whatever the body", async () => {
    const ip = "10.14.0.1";
    for (const n of [1, 2]) {
      const ok = await post(
        "/sign-up/email",
        { name: "Edge", email: `edge-${n}@example.com`, password: TEST_PASSWORD },
        ip,
      );
      expect(ok.status).toBe(200);
      expect(heldFor(ok)).toBe(0);
    }
    const refused = await post(
      "/sign-up/email",
      { name: "Edge", email: "edge-3@example.com", password: TEST_PASSWORD },
      ip,
    );
    expectRepeatable(refused);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // another client is not refused
    const other = await post(
      "/sign-up/email",
      { name: "Edge", email: "edge-4@example.com", password: TEST_PASSWORD },
      "10.14.0.2",
    );
    expect(other.status).toBe(200);
  });

  it("sign-in refused for the client's failures is marked; an account's delay is not", async () => {
    const ip = "10.14.0.3";
    for (let i = 0; i < 3; i++) {
      const wrong = await post(
        "/sign-in/email",
        { email: `nobody-${i}@example.com`, password: "wrong-password-1" },
        ip,
      );
      expect(wrong.status).toBe(401);
      expect(heldFor(wrong)).toBe(0);
    }
    expectRepeatable(
      await post("/sign-in/email", { email: "anyone@example.com", password: "x-password-2" }, ip),
    );

    // one account guessed from many addresses: delayed, but the refusal depends on the body's account
    const email = "target@example.com";
    for (let i = 0; i < FREE_ACCOUNT_FAILURES; i++) {
      expect(
        (await post("/sign-in/email", { email, password: "wrong-password-1" }, `10.14.1.${i}`)).status,
      ).toBe(401);
    }
    const delayed = await post("/sign-in/email", { email, password: "wrong-password-1" }, "10.14.2.1");
    expect(delayed.status).toBe(429);
    expect(heldFor(delayed)).toBe(0);

    // a client that keeps trying during the account's delay fails each time, and so reaches its own
    // lockout (3 here), which the edge may repeat: a flood of one account costs the app 3 requests
    for (let i = 0; i < 2; i++) {
      const again = await post("/sign-in/email", { email, password: "wrong-password-1" }, "10.14.2.1");
      expect(heldFor(again)).toBe(0);
      expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/this account/);
    }
    const locked = await post("/sign-in/email", { email, password: "wrong-password-1" }, "10.14.2.1");
    expectRepeatable(locked);
    expect(((await locked.json()) as { error: { message: string } }).error.message).toMatch(/this network/);
  });
});
