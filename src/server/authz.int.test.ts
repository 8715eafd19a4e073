import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestAuth, signUp as signUpWith } from "../../tests/support/auth";
import { createTestDatabase } from "../../tests/support/db";
import { loadMembership, loadViewer } from "./authz";
import { member, organization, rateLimitEvents, user } from "./db/schema";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createTestAuth>;

beforeAll(async () => {
  t = await createTestDatabase();
  auth = createTestAuth(t.db, { signInLimit: 3, signUpLimit: 4 });
});
afterAll(async () => {
  await t.drop();
});

const signUp = (email: string, ip = "10.0.0.1") => signUpWith(auth, t.db, email, { ip });

describe("loadViewer", () => {
  it("is null without a session cookie", async () => {
    expect(await loadViewer(t.db, auth, client("10.0.0.1"))).toBeNull();
  });

  it("reads role and onboarding state from the database on every call", async () => {
    const { cookie, id } = await signUp("viewer@example.com");
    const before = await loadViewer(t.db, auth, client("10.0.0.1", cookie));
    expect(before?.user).toMatchObject({
      id,
      email: "viewer@example.com",
      role: "user",
      onboardingStep: "profile",
    });
    await t.db.update(user).set({ role: "admin", onboardingStep: "done" }).where(eq(user.id, id));
    const after = await loadViewer(t.db, auth, client("10.0.0.1", cookie));
    expect(after?.user).toMatchObject({ role: "admin", onboardingStep: "done" });
  });

  it("treats a banned user as signed out", async () => {
    const { cookie, id } = await signUp("banned@example.com");
    await t.db.update(user).set({ banned: true }).where(eq(user.id, id));
    expect(await loadViewer(t.db, auth, client("10.0.0.1", cookie))).toBeNull();
  });
});

describe("loadMembership", () => {
  it("returns the role only for the organization the user belongs to", async () => {
    const { id } = await signUp("member-of-one@example.com");
    await t.db.insert(organization).values([
      { id: "org-a", name: "A", slug: "org-a" },
      { id: "org-b", name: "B", slug: "org-b" },
    ]);
    await t.db.insert(member).values({ id: "m-1", organizationId: "org-a", userId: id, role: "admin" });
    expect(await loadMembership(t.db, id, "org-a")).toEqual({
      org: { id: "org-a", name: "A", slug: "org-a" },
      memberRole: "admin",
    });
    expect(await loadMembership(t.db, id, "org-b")).toBeNull();
    expect(await loadMembership(t.db, id, null)).toBeNull();
  });
});

describe("sign-in and sign-up limits (in the database)", () => {
  it("refuses sign-in attempts past the limit per client, with the generic error before that", async () => {
    await signUp("limited@example.com", "10.0.0.2");
    const attempt = () =>
      auth.api
        .signInEmail({
          body: { email: "limited@example.com", password: "wrong-password-here" },
          headers: client("10.0.0.9"),
        })
        .then(
          () => "ok",
          (error: { status?: string; body?: { code?: string; message?: string } }) =>
            error.body?.code ?? error.status,
        );
    expect([await attempt(), await attempt(), await attempt()]).toEqual(
      Array(3).fill("INVALID_EMAIL_OR_PASSWORD"),
    );
    expect(await attempt()).toBe("RATE_LIMITED");
    const rows = await t.db.select().from(rateLimitEvents).where(eq(rateLimitEvents.bucket, "sign-in"));
    expect(rows.length).toBe(3);
    // The stored subject is a keyed hash, never the address itself.
    expect(rows.every((r) => !r.subject.includes("10.0.0.9"))).toBe(true);
  });

  it("limits sign-ups per client", async () => {
    const results: string[] = [];
    for (let i = 0; i < 5; i++) {
      results.push(
        await auth.api
          .signUpEmail({
            body: { name: "Many", email: `many-${i}@example.com`, password: "a-long-unusual-passphrase" },
            headers: client("10.0.0.77"),
          })
          .then(
            () => "ok",
            (error: { body?: { code?: string } }) => error.body?.code ?? "error",
          ),
      );
    }
    expect(results).toEqual(["ok", "ok", "ok", "ok", "RATE_LIMITED"]);
  });

  it("rejects common passwords at sign-up even when called directly", async () => {
    const outcome = await auth.api
      .signUpEmail({
        body: { name: "Weak", email: "weak@example.com", password: "password1234" },
        headers: client("10.0.0.50"),
      })
      .then(
        () => "ok",
        (error: { body?: { code?: string } }) => error.body?.code,
      );
    expect(outcome).toBe("WEAK_PASSWORD");
  });
});
