import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cookiesOf, createTestAuth, signUp } from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";

// The action runs for real against a test database: only the request headers and the process-wide
// database and auth instances are replaced by the test's.
const h = vi.hoisted(() => ({
  headers: new Headers(),
  db: undefined as unknown,
  auth: undefined as unknown,
}));
vi.mock("next/headers", () => ({
  headers: async () => h.headers,
  cookies: async () => ({ get: () => undefined, set: () => {} }),
}));
vi.mock("@/server/db/client", () => ({ getDb: () => h.db }));
vi.mock("@/server/auth", () => ({ getAuth: () => h.auth }));

const { apiKeys, user } = await import("@/server/db/schema");
const { IMPERSONATION_REFUSAL } = await import("@/server/auth/surface");
const { createApiKeyAction } = await import("./actions");

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createTestAuth>;

beforeAll(async () => {
  t = await createTestDatabase();
  auth = createTestAuth(t.db);
  h.db = t.db;
  h.auth = auth;
});
afterAll(async () => {
  await t.drop();
});

const as = (cookie: string) => {
  h.headers = new Headers({ origin: "http://localhost:3999", "x-forwarded-for": "10.32.0.1", cookie });
};

describe("createApiKeyAction", () => {
  it("refuses an admin impersonating an owner (a key would outlive the impersonation); the owner may", async () => {
    const root = await signUp(auth, t.db, "root@keys.test", { ip: "10.32.0.1" });
    const owner = await signUp(auth, t.db, "owner@keys.test", { ip: "10.32.0.1" });
    await t.db.update(user).set({ role: "admin", onboardingStep: "done" }).where(eq(user.id, root.id));
    await t.db.update(user).set({ onboardingStep: "done" }).where(eq(user.id, owner.id));
    await auth.api.createOrganization({
      headers: new Headers({ "x-forwarded-for": "10.32.0.1", cookie: owner.cookie }),
      body: { name: "Keys Co", slug: "keys-co" },
    });
    const started = await auth.api.impersonateUser({
      headers: new Headers({ "x-forwarded-for": "10.32.0.1", cookie: root.cookie }),
      body: { userId: owner.id },
      asResponse: true,
    });
    expect(started.status).toBe(200);
    as(cookiesOf(started, root.cookie));
    expect(await createApiKeyAction({ name: "planted" })).toEqual({
      ok: false,
      error: IMPERSONATION_REFUSAL,
    });
    expect(await t.db.select().from(apiKeys)).toEqual([]);

    const { signIn } = await import("../../../tests/support/auth");
    as(await signIn(auth, "owner@keys.test", "10.32.0.1"));
    expect(await createApiKeyAction({ name: "mine" })).toMatchObject({ ok: true });
    expect(await t.db.select().from(apiKeys)).toHaveLength(1);
  });
});
