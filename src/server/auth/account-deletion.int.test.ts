import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authPoster } from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import { member, organization, user } from "../db/schema";
import { ACCOUNT_DELETION_REFUSED } from "./account-deletion";
import { createAuth } from "./auth";

// Deleting an account takes its memberships with it. The sole owner's organization would be left
// with nobody who can manage, pay for or delete it, and the last admin's instance with nobody to
// administer it. Both paths are exercised: POST /api/auth/delete-user and auth.api.deleteUser (what
// the profile page's action calls).
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createAuth>;
const origin = "http://localhost:3996";
const password = "a-long-unusual-passphrase";

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
afterAll(() => t.drop());

const http = (path: string, body: unknown, cookie?: string) =>
  authPoster(auth, origin, "10.3.0.1")(path, body, cookie);

async function account(email: string) {
  expect((await http("/sign-up/email", { name: "Leaving User", email, password })).status).toBe(200);
  await t.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  const signIn = await http("/sign-in/email", { email, password });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  return { cookie, id: row?.id ?? "" };
}

const exists = async (id: string) => (await t.db.select().from(user).where(eq(user.id, id))).length === 1;

async function orgOwnedBy(cookie: string, name: string, slug: string): Promise<string> {
  const created = await http("/organization/create", { name, slug }, cookie);
  expect(created.status).toBe(200);
  return ((await created.json()) as { id: string }).id;
}

describe("deleting your own account", () => {
  it("is refused to the only owner of an organization, until it has another owner", async () => {
    const solo = await account("solo@example.com");
    const orgId = await orgOwnedBy(solo.cookie, "Solo Books", "solo-books");
    const refused = await http("/delete-user", { password }, solo.cookie);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { message: string };
    expect(body.message).toMatch(/^You are the only owner of “Solo Books”\. Make another member its owner/);
    expect(await exists(solo.id)).toBe(true);

    // A plain member of the organization does not help; a second owner does.
    const other = await account("co-owner@example.com");
    await t.db
      .insert(member)
      .values({ id: "co-member", organizationId: orgId, userId: other.id, role: "member" });
    expect((await http("/delete-user", { password }, solo.cookie)).status).toBe(400);
    await t.db.update(member).set({ role: "owner" }).where(eq(member.id, "co-member"));
    expect((await http("/delete-user", { password }, solo.cookie)).status).toBe(200);
    expect(await exists(solo.id)).toBe(false);
    expect(await t.db.select().from(organization).where(eq(organization.id, orgId))).toHaveLength(1);
  });

  it("is refused on the profile page's path too (auth.api.deleteUser), and a wrong password still comes first", async () => {
    const owner = await account("app-solo@example.com");
    await orgOwnedBy(owner.cookie, "Alpha", "alpha-co");
    await orgOwnedBy(owner.cookie, "Beta", "beta-co");
    const headers = new Headers({ cookie: owner.cookie, origin });
    await expect(
      auth.api.deleteUser({ headers, body: { password: "not-the-password-at-all" } }),
    ).rejects.toMatchObject({ body: { code: "INVALID_PASSWORD" } });
    await expect(auth.api.deleteUser({ headers, body: { password } })).rejects.toMatchObject({
      body: {
        code: ACCOUNT_DELETION_REFUSED,
        message: expect.stringMatching(
          /^You are the only owner of “Alpha” and “Beta”\. Make another member their owner, or delete those organizations/,
        ),
      },
    });
    expect(await exists(owner.id)).toBe(true);
  });

  it("is refused to the last active platform admin", async () => {
    const admin = await account("only-admin@example.com");
    await t.db.update(user).set({ role: "admin" }).where(eq(user.id, admin.id));
    const refused = await http("/delete-user", { password }, admin.cookie);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^You are the last platform admin/,
    );
    // A banned admin is no admin to leave the instance to.
    const banned = await account("banned-admin@example.com");
    await t.db.update(user).set({ role: "admin", banned: true }).where(eq(user.id, banned.id));
    expect((await http("/delete-user", { password }, admin.cookie)).status).toBe(400);
    await t.db.update(user).set({ banned: false }).where(eq(user.id, banned.id));
    expect((await http("/delete-user", { password }, admin.cookie)).status).toBe(200);
    expect(await exists(admin.id)).toBe(false);
  });

  it("goes ahead for an account that owns nothing alone and is no admin", async () => {
    const plain = await account("plain@example.com");
    expect((await http("/delete-user", { password }, plain.cookie)).status).toBe(200);
    expect(await exists(plain.id)).toBe(false);
  });
});
