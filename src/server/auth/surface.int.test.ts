import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callServerSide,
  client,
  cookiesOf,
  createTestAuth,
  signIn,
  signUp,
  TEST_ORIGIN,
  TEST_PASSWORD,
} from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import { account, auditLog, session, user } from "../db/schema";
import { handleAuthHttp } from "./hardening";
import { AUTH_SURFACE, IMPERSONATION_REFUSAL } from "./surface";

// Better Auth's own endpoints went around the app's rules: impersonation left no audit row, an
// impersonating admin could add a passkey or change the address and password, and the admin plugin
// could set a password, mark an address verified or demote the last admin. These run through the
// same handler as the /api/auth route, and through `auth.api.*` as the server actions call it.
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createTestAuth>;
const ids: Record<string, string> = {};
const cookies: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestDatabase();
  auth = createTestAuth(t.db, { signInLimit: 100 });
  for (const name of ["root", "alice", "bob"]) {
    const signedUp = await signUp(auth, t.db, `${name}@surface.test`, { ip: "10.31.0.1", name });
    ids[name] = signedUp.id;
    cookies[name] = signedUp.cookie;
  }
  await t.db
    .update(user)
    .set({ role: "admin" })
    .where(eq(user.id, ids.root ?? ""));
});
afterAll(async () => {
  await t.drop();
});

const http = (path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) =>
  handleAuthHttp(
    new Request(`${TEST_ORIGIN}/api/auth${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        ...Object.fromEntries(client("10.31.0.2", init.cookie)),
        "content-type": "application/json",
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
    (request) => auth.handler(request),
  );
const asServer = (path: string, cookie: string, body?: unknown) =>
  callServerSide(auth, path, { body, headers: client("10.31.0.2", cookie) });

async function impersonate(target: string) {
  const response = await asServer("/admin/impersonate-user", cookies.root ?? "", { userId: ids[target] });
  expect(response.status).toBe(200);
  return cookiesOf(response, cookies.root);
}

describe("over HTTP", () => {
  it("answers 404 for every endpoint the product does not serve there, before Better Auth runs", async () => {
    const notServed = Object.entries(AUTH_SURFACE).filter(([, entry]) => entry.exposure !== "http");
    for (const [path] of notServed) {
      const concrete = path.replace(":id", "google").replace(":token", "abc");
      for (const method of ["GET", "POST"]) {
        const response = await http(concrete, {
          method,
          body: method === "POST" ? {} : undefined,
          cookie: cookies.root,
        });
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    }
    // Better Auth's own router agrees (disabledPaths), for the paths without parameters.
    const direct = await auth.handler(
      new Request(`${TEST_ORIGIN}/api/auth/admin/set-user-password`, {
        method: "POST",
        headers: {
          ...Object.fromEntries(client("10.31.0.2", cookies.root)),
          "content-type": "application/json",
        },
        body: JSON.stringify({ userId: ids.alice, newPassword: "attacker-chosen-passphrase-1" }),
      }),
    );
    expect(direct.status).toBe(404);
    // What the product serves still answers.
    expect((await http("/get-session", { cookie: cookies.alice })).status).toBe(200);
  });
});

describe("the admin plugin's credential endpoints", () => {
  it("are refused even from server code: no password set, no address marked verified, no self-demotion", async () => {
    const [before] = await t.db
      .select()
      .from(account)
      .where(eq(account.userId, ids.alice ?? ""));
    const setPassword = await asServer("/admin/set-user-password", cookies.root ?? "", {
      userId: ids.alice,
      newPassword: "attacker-chosen-passphrase-1",
    });
    expect(setPassword.status).toBe(404);
    const [after] = await t.db
      .select()
      .from(account)
      .where(eq(account.userId, ids.alice ?? ""));
    expect(after?.password).toBe(before?.password);

    await t.db
      .update(user)
      .set({ emailVerified: false })
      .where(eq(user.id, ids.bob ?? ""));
    const update = await asServer("/admin/update-user", cookies.root ?? "", {
      userId: ids.bob,
      data: { email: "attacker@evil.test", emailVerified: true },
    });
    expect(update.status).toBe(404);
    const [bob] = await t.db
      .select()
      .from(user)
      .where(eq(user.id, ids.bob ?? ""));
    expect(bob).toMatchObject({ email: "bob@surface.test", emailVerified: false });
    await t.db
      .update(user)
      .set({ emailVerified: true })
      .where(eq(user.id, ids.bob ?? ""));

    // The last admin demoting themselves (the admin pages refuse it with the last-admin rule).
    const demote = await asServer("/admin/set-role", cookies.root ?? "", { userId: ids.root, role: "user" });
    expect(demote.status).toBe(404);
    const [root] = await t.db
      .select({ role: user.role })
      .from(user)
      .where(eq(user.id, ids.root ?? ""));
    expect(root?.role).toBe("admin");
  });
});

describe("impersonation", () => {
  it("writes an audit row when it starts and when it stops, whoever calls Better Auth", async () => {
    const impersonating = await impersonate("alice");
    const started = await t.db.select().from(auditLog).where(eq(auditLog.action, "user.impersonate"));
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      actorId: ids.root,
      actorEmail: "root@surface.test",
      targetId: ids.alice,
      targetLabel: "alice <alice@surface.test>",
    });
    const stopped = await asServer("/admin/stop-impersonating", impersonating);
    expect(stopped.status).toBe(200);
    expect(
      await t.db.select().from(auditLog).where(eq(auditLog.action, "user.stop-impersonating")),
    ).toMatchObject([{ actorId: ids.root, targetId: ids.alice }]);
  });

  it("follows the admin pages' rules: a banned user cannot be impersonated", async () => {
    const banned = await signUp(auth, t.db, "banned@surface.test", { ip: "10.31.0.1" });
    await t.db.update(user).set({ banned: true, banReason: "spam" }).where(eq(user.id, banned.id));
    const refused = await asServer("/admin/impersonate-user", cookies.root ?? "", { userId: banned.id });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      message: expect.stringMatching(/banned user cannot be impersonated/),
    });
    expect(
      await t.db
        .select()
        .from(session)
        .where(and(eq(session.userId, banned.id), eq(session.impersonatedBy, ids.root ?? ""))),
    ).toEqual([]);
  });

  it("cannot change the account's credentials: passkeys, address, password, two-factor, deletion", async () => {
    const impersonating = await impersonate("bob");
    const attempts: Array<[string, unknown]> = [
      ["/passkey/generate-register-options", undefined],
      ["/passkey/verify-registration", { response: {} }],
      ["/passkey/delete-passkey", { id: "any" }],
      ["/change-email", { newEmail: "attacker@evil.test" }],
      ["/change-password", { currentPassword: TEST_PASSWORD, newPassword: "attacker-chosen-passphrase-1" }],
      ["/two-factor/enable", { password: TEST_PASSWORD }],
      ["/two-factor/disable", { password: TEST_PASSWORD }],
      ["/two-factor/generate-backup-codes", { password: TEST_PASSWORD }],
      ["/delete-user", { password: TEST_PASSWORD }],
    ];
    for (const [path, body] of attempts) {
      const response = await asServer(path, impersonating, body);
      expect(response.status, path).toBe(403);
      expect(await response.json(), path).toMatchObject({ message: IMPERSONATION_REFUSAL });
    }
    const [bob] = await t.db
      .select()
      .from(user)
      .where(eq(user.id, ids.bob ?? ""));
    expect(bob).toMatchObject({ email: "bob@surface.test", twoFactorEnabled: false });
    // The owner's own session may: the refusal is about who acts, not about the endpoint.
    const own = await signIn(auth, "bob@surface.test", "10.31.0.3");
    expect((await asServer("/passkey/generate-register-options", own)).status).toBe(200);
    expect(
      await t.db
        .select()
        .from(session)
        .where(and(eq(session.userId, ids.bob ?? ""), eq(session.impersonatedBy, ids.root ?? ""))),
    ).toHaveLength(1);
  });
});
