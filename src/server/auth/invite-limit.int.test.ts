import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callServerSide } from "../../../tests/support/auth";
import { activeSubscription, createTestDatabase } from "../../../tests/support/db";
import { invitation, subscriptions, user } from "../db/schema";
import { createAuth } from "./auth";
import { handleAuthHttp, toApiErrorShape } from "./hardening";

// Better Auth's own `POST /api/auth/organization/invite-member` was not capped by the
// organization's plan at invite time (only at acceptance), while the app's invite action counts
// members and pending invitations. The endpoint is now served only to the app's actions (HTTP: 404),
// and the cap holds for those calls too.
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createAuth>;
const origin = "http://localhost:3997";

beforeAll(async () => {
  t = await createTestDatabase();
  auth = createAuth(t.db, {
    baseURL: origin,
    trustedOrigins: [origin],
    secret: "integration-test-secret-integration-test-secret",
    secureCookies: false,
    signInLimit: 50,
    signUpLimit: 50,
  });
});
afterAll(async () => {
  await t.drop();
});

/** Over HTTP for sign-up and sign-in; the organization endpoints as the app's actions call them. */
const post = async (path: string, body: unknown, cookie?: string) =>
  path.startsWith("/organization/")
    ? toApiErrorShape(
        await callServerSide(auth, path, {
          body,
          headers: new Headers({ origin, "x-forwarded-for": "10.2.0.1", ...(cookie ? { cookie } : {}) }),
        }),
      )
    : handleAuthHttp(
        new Request(`${origin}/api/auth${path}`, {
          method: "POST",
          headers: {
            origin,
            "content-type": "application/json",
            "x-forwarded-for": "10.2.0.1",
            ...(cookie ? { cookie } : {}),
          },
          body: JSON.stringify(body),
        }),
        (request) => auth.handler(request),
      );

async function signedIn(email: string) {
  const password = "a-long-unusual-passphrase";
  expect((await post("/sign-up/email", { name: "Inviting User", email, password })).status).toBe(200);
  await t.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  const signIn = await post("/sign-in/email", { email, password });
  expect(signIn.status).toBe(200);
  return (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
}

describe("POST /api/auth/organization/invite-member", () => {
  it("refuses past the plan's member cap (members + pending invitations), like the app's action", async () => {
    const owner = await signedIn("owner@invite.test");
    const created = await post("/organization/create", { name: "Invite Co", slug: "invite-co" }, owner);
    expect(created.status).toBe(200);
    const { id: organizationId } = (await created.json()) as { id: string };
    const invite = (email: string, cookie = owner) =>
      post("/organization/invite-member", { email, role: "member", organizationId }, cookie);

    // Free: one member, the owner. No invitation fits.
    const onFree = await invite("first@invite.test");
    expect(onFree.status).toBe(403);
    expect(await onFree.json()).toEqual({
      error: {
        code: "organization_membership_limit_reached",
        message: expect.stringMatching(/Free plan allows 1 member .*1 members and pending invitations/),
      },
    });

    // Pro: five. The owner and four pending invitations fill it; the fifth invitation is refused.
    await t.db.insert(subscriptions).values(activeSubscription(organizationId, "pro"));
    for (const name of ["a", "b", "c", "d"]) expect((await invite(`${name}@invite.test`)).status).toBe(200);
    const fifth = await invite("e@invite.test");
    expect(fifth.status).toBe(403);
    expect(await fifth.json()).toMatchObject({
      error: {
        code: "organization_membership_limit_reached",
        message: expect.stringMatching(/Pro plan allows 5/),
      },
    });
    const pending = await t.db.select().from(invitation).where(eq(invitation.organizationId, organizationId));
    expect(pending).toHaveLength(4);

    // Someone outside the organization is refused by Better Auth as before, without learning its plan.
    const stranger = await signedIn("stranger@invite.test");
    const outside = await invite("f@invite.test", stranger);
    expect(outside.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(await outside.json())).not.toMatch(/plan allows/);
  });
});
