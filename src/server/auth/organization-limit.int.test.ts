import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authPoster } from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import { member, organization, user } from "../db/schema";
import { createAuth } from "./auth";
import { ORGANIZATION_LIMIT_CODE, organizationLimitMessage } from "./organization-limit";

// One account owning any number of organizations multiplies the free quota. The cap is checked by
// Better Auth's create endpoint, which the app's own forms call (auth.api.createOrganization) and
// which answers POST /api/auth/organization/create: both paths are exercised here.
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createAuth>;
const origin = "http://localhost:3997";
const LIMIT = 2;

beforeAll(async () => {
  t = await createTestDatabase();
  auth = createAuth(t.db, {
    baseURL: origin,
    trustedOrigins: [origin],
    secret: "integration-test-secret-integration-test-secret",
    secureCookies: false,
    signInLimit: 50,
    signUpLimit: 50,
    organizationsPerUser: LIMIT,
  });
});
afterAll(() => t.drop());

const http = (path: string, body: unknown, cookie?: string) =>
  authPoster(auth, origin, "10.2.0.1")(path, body, cookie);

/** A confirmed account, signed in: its cookie and id. */
async function account(email: string) {
  const password = "a-long-unusual-passphrase";
  expect((await http("/sign-up/email", { name: "Org Maker", email, password })).status).toBe(200);
  await t.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  const signIn = await http("/sign-in/email", { email, password });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  return { cookie, id: row?.id ?? "" };
}

const owned = async (userId: string) =>
  (
    await t.db
      .select({ id: member.organizationId })
      .from(member)
      .where(and(eq(member.userId, userId), eq(member.role, "owner")))
  ).length;

describe("organizations per user", () => {
  it("refuses one more organization at Better Auth's endpoint, with the limit in the message", async () => {
    const { cookie, id } = await account("http-maker@example.com");
    for (let i = 1; i <= LIMIT; i++) {
      const created = await http("/organization/create", { name: `Http ${i}`, slug: `http-${i}` }, cookie);
      expect(created.status).toBe(200);
    }
    const refused = await http("/organization/create", { name: "Http 3", slug: "http-3" }, cookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: organizationLimitMessage(LIMIT) });
    expect(await owned(id)).toBe(LIMIT);
    expect(await t.db.select().from(organization).where(eq(organization.slug, "http-3"))).toHaveLength(0);
  });

  it("refuses it on the app's path too (auth.api.createOrganization with the session's headers)", async () => {
    const { cookie, id } = await account("app-maker@example.com");
    const headers = new Headers({ cookie, origin });
    for (let i = 1; i <= LIMIT; i++) {
      await auth.api.createOrganization({ headers, body: { name: `App ${i}`, slug: `app-${i}` } });
    }
    await expect(
      auth.api.createOrganization({ headers, body: { name: "App 3", slug: "app-3" } }),
    ).rejects.toMatchObject({
      body: { code: ORGANIZATION_LIMIT_CODE, message: organizationLimitMessage(LIMIT) },
    });
    expect(await owned(id)).toBe(LIMIT);
  });

  it("holds under concurrent creates", async () => {
    // Several rounds: the race this guards against (a row stamped earlier but inserted later) only
    // shows on some interleavings.
    for (let round = 0; round < 4; round++) {
      const { cookie, id } = await account(`racer-${round}@example.com`);
      const statuses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          http("/organization/create", { name: `Race ${i}`, slug: `race-${round}-${i}` }, cookie).then(
            (r) => r.status,
          ),
        ),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
      expect(statuses.filter((s) => s !== 200).every((s) => s === 403)).toBe(true);
      expect(await owned(id)).toBe(LIMIT);
    }
    // Nothing half-written: every organization left has its owner.
    const orphans = await t.sql`select o.id from organization o
      where not exists (select 1 from member m where m.organization_id = o.id)`;
    expect(orphans).toHaveLength(0);
  });

  it("counts only organizations the user owns, not those they were invited into", async () => {
    const { cookie, id } = await account("joiner@example.com");
    const others = await t.db
      .select({ id: organization.id })
      .from(organization)
      .limit(LIMIT + 1);
    await t.db.insert(member).values(
      others.map((o, i) => ({
        id: `joined-${i}`,
        organizationId: o.id,
        userId: id,
        role: "member" as const,
      })),
    );
    const created = await http("/organization/create", { name: "Mine", slug: "mine" }, cookie);
    expect(created.status).toBe(200);
  });
});
