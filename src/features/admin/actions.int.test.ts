import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ActionEnvironment, ServerAction } from "@/server/action";

// The actions run for real against a test database and a real Better Auth: each call is handed the
// test's environment (database, auth, the request's headers, and where the answer's cookies go)
// through `.using()`, so nothing is mocked.
import { createAuth } from "@/server/auth/auth";
import { isAdminViewer, loadViewer } from "@/server/authz";
import {
  auditLog,
  contactMessages,
  fxRateHistory,
  fxRates,
  fxRatesVersion,
  session,
  user,
} from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import { createTestDatabase } from "../../../tests/support/db";
import * as actionsModule from "./actions";
import * as stopImpersonating from "./stop-impersonating";

const adminActions = { ...actionsModule, ...stopImpersonating };

/** The FX table's version, which `ratesChanged` bumps so every instance reloads its cached rates. */
const ratesVersion = async () => (await t.db.select().from(fxRatesVersion))[0]?.version ?? 0;

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createAuth>;
const origin = "http://localhost:3999";
const PASSWORD = "a-long-unusual-passphrase";

const ids: Record<string, string> = {};
const cookies: Record<string, string> = {};

async function signUp(key: string, role: "user" | "admin") {
  const email = `${key}@example.com`;
  const response = await auth.api.signUpEmail({
    body: { name: key, email, password: PASSWORD },
    headers: new Headers({ "x-forwarded-for": "10.0.0.9", origin }),
    asResponse: true,
  });
  expect(response.status).toBe(200);
  // Sign-up answers alike for every address (no id): find the account, and confirm its address.
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  ids[key] = row?.id ?? "";
  await t.db
    .update(user)
    .set({ role, onboardingStep: "done", emailVerified: true })
    .where(eq(user.id, ids[key]));
  cookies[key] = await signIn(email);
}

async function signIn(email: string): Promise<string> {
  const response = await auth.api.signInEmail({
    body: { email, password: PASSWORD },
    headers: new Headers({ "x-forwarded-for": "10.0.0.9", origin }),
    asResponse: true,
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
  return cookieHeader(response.headers.getSetCookie());
}

const cookieHeader = (setCookies: string[]) => setCookies.map((c) => c.split(";")[0]).join("; ");

/** The cookies the last action's Better Auth answers set, by name. */
const setCookies = new Map<string, string>();
let requestHeaders = new Headers();

function as(key: string | null) {
  requestHeaders = new Headers({ origin, ...(key ? { cookie: cookies[key] ?? key } : {}) });
}

const environment = (): ActionEnvironment => ({
  db: t.db,
  auth,
  headers: requestHeaders,
  setCookies: async (answer) => {
    for (const line of answer.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      setCookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  },
});

/** Every admin action, run as the current `as(...)` request. */
const actions = Object.fromEntries(
  Object.entries(adminActions).map(([name, run]) => [
    name,
    (input: unknown) => (run as ServerAction<unknown>).using(environment())(input),
  ]),
) as { [K in keyof typeof adminActions]: (typeof adminActions)[K] };

/** Whether the current request would pass the admin pages' guard (requireAdmin). */
const isAdmin = async () => {
  const viewer = await loadViewer(t.db, auth, requestHeaders);
  return viewer !== null && isAdminViewer(viewer);
};

const audits = (action: string) =>
  t.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));

beforeAll(async () => {
  t = await createTestDatabase();
  auth = createAuth(t.db, {
    baseURL: origin,
    trustedOrigins: [origin],
    secret: "integration-test-secret-integration-test-secret",
    secureCookies: false,
    signInLimit: 1000,
    signUpLimit: 1000,
  });
  await signUp("root", "admin");
  await signUp("second", "admin");
  await signUp("alice", "user");
  await signUp("bob", "user");
});
afterAll(async () => {
  await t.drop();
});
beforeEach(() => {
  setCookies.clear();
});

const ECB = readFileSync(new URL("../../core/money/data/ecb-eurofxref.xml", import.meta.url), "utf8");
const ecbWith = (date: string, usd: string) =>
  ECB.replace("time='2026-11-20'", `time='${date}'`).replace("rate='1.1582'", `rate='${usd}'`);

describe("guards", () => {
  const calls: [string, () => Promise<{ ok: boolean; error?: string }>][] = [
    ["setRole", () => actions.setRoleAction({ userId: ids.bob, role: "admin" })],
    ["ban", () => actions.banUserAction({ userId: ids.bob, reason: "spam spam", until: "" })],
    ["unban", () => actions.unbanUserAction({ userId: ids.bob })],
    ["revokeSessions", () => actions.revokeSessionsAction({ userId: ids.bob })],
    ["delete", () => actions.deleteUserAction({ userId: ids.bob, confirm: "bob@example.com" })],
    ["impersonate", () => actions.impersonateAction({ userId: ids.bob })],
    ["previewRates", () => actions.previewRatesAction({ kind: "ecb-xml", text: ECB, date: "" })],
    ["applyRates", () => actions.applyRatesAction({ kind: "ecb-xml", text: ECB, date: "" })],
    ["editRate", () => actions.editRateAction({ currency: "USD", rate: "2", date: "2026-11-21" })],
    [
      "contact",
      () => actions.setContactHandledAction({ id: "00000000-0000-4000-8000-000000000000", handled: true }),
    ],
  ];

  it.each(calls)("%s refuses a signed-in non-admin and changes nothing", async (_name, call) => {
    as("alice");
    const before = await t.db.select().from(auditLog);
    expect(await call()).toEqual({ ok: false, error: "Not found." });
    as(null);
    expect((await call()).ok).toBe(false);
    expect(await t.db.select().from(auditLog)).toHaveLength(before.length);
    const [bob] = await t.db
      .select()
      .from(user)
      .where(eq(user.id, ids.bob ?? ""));
    expect(bob).toMatchObject({ role: "user", banned: false });
  });

  it("every admin page calls requireAdmin, whose rule refuses non-admins", async () => {
    const root = path.resolve("src/app/(admin)/admin");
    const pages: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/^page\.tsx$/.test(name)) pages.push(full);
      }
    };
    walk(root);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) expect(readFileSync(page, "utf8")).toMatch(/await requireAdmin\(/);
    as("alice");
    expect(await isAdmin()).toBe(false);
    as("root");
    expect(await isAdmin()).toBe(true);
  });
});

describe("user management rules", () => {
  it("an admin cannot ban, demote or delete themselves", async () => {
    as("root");
    const self = "You cannot do that to your own account.";
    expect(await actions.banUserAction({ userId: ids.root, reason: "testing", until: "" })).toEqual({
      ok: false,
      error: self,
    });
    expect(await actions.setRoleAction({ userId: ids.root, role: "user" })).toEqual({
      ok: false,
      error: self,
    });
    expect(await actions.deleteUserAction({ userId: ids.root, confirm: "root@example.com" })).toMatchObject({
      ok: false,
      error: self,
    });
    const [root] = await t.db
      .select()
      .from(user)
      .where(eq(user.id, ids.root ?? ""));
    expect(root).toMatchObject({ role: "admin", banned: false });
  });

  it("the last admin cannot be demoted, banned or deleted, even with the rows raced", async () => {
    const { setUserRole, banUser } = await import("@/features/admin/server/users");
    // Two admins demote each other at once: the admin rows are locked, so one of them must fail.
    const [a, b] = await Promise.all([
      setUserRole(t.db, { id: ids.root ?? "", email: "root@example.com" }, ids.second ?? "", "user"),
      setUserRole(t.db, { id: ids.second ?? "", email: "second@example.com" }, ids.root ?? "", "user"),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const admins = await t.db.select().from(user).where(eq(user.role, "admin"));
    expect(admins).toHaveLength(1);
    const survivor = admins[0]?.id ?? "";
    const other = survivor === ids.root ? ids.second : ids.root;
    // The demoted one is no longer an admin and can do nothing.
    expect(
      await banUser(t.db, { id: other ?? "", email: "x" }, survivor, { reason: "x", expiresAt: null }),
    ).toEqual({ ok: false, error: "Not found." });
    // Restore both admins for the other tests (by hand, as the promote script does).
    await t.db
      .update(user)
      .set({ role: "admin" })
      .where(eq(user.id, other ?? ""));
    expect(await setUserRole(t.db, { id: survivor, email: "x" }, other ?? "", "user")).toMatchObject({
      ok: true,
    });
    expect(await setUserRole(t.db, { id: survivor, email: "x" }, survivor, "user")).toEqual({
      ok: false,
      error: "You cannot do that to your own account.",
    });
    // With one admin left, no one else can take them away: a demoted other admin is refused.
    await t.db
      .update(user)
      .set({ role: "admin" })
      .where(eq(user.id, other ?? ""));
  });

  it("refuses to leave no active admin when the other admin is banned", async () => {
    const { setUserRole } = await import("@/features/admin/server/users");
    await t.db
      .update(user)
      .set({ banned: true })
      .where(eq(user.id, ids.second ?? ""));
    // root would demote second (banned): fine, second is not an active admin...
    // ...but second (banned) is no admin at all, so cannot act.
    expect(await setUserRole(t.db, { id: ids.second ?? "", email: "x" }, ids.root ?? "", "user")).toEqual({
      ok: false,
      error: "Not found.",
    });
    await t.db
      .update(user)
      .set({ banned: false })
      .where(eq(user.id, ids.second ?? ""));
  });
});

describe("admin actions and their audit rows", () => {
  it("sets a role, with before and after", async () => {
    as("root");
    expect(await actions.setRoleAction({ userId: ids.bob, role: "admin" })).toMatchObject({ ok: true });
    const [row] = await audits("user.set-role");
    expect(row).toMatchObject({
      actorId: ids.root,
      actorEmail: "root@example.com",
      targetId: ids.bob,
      targetLabel: "bob <bob@example.com>",
      before: { role: "user" },
      after: { role: "admin" },
    });
    expect(row?.at).toBeInstanceOf(Date);
    expect(await actions.setRoleAction({ userId: ids.bob, role: "user" })).toMatchObject({ ok: true });
  });

  it("bans with a reason and expiry (signing the user out, blocking sign-in), then unbans", async () => {
    as("root");
    const bobSession = cookies.bob ?? "";
    expect(
      await actions.banUserAction({ userId: ids.bob, reason: "Chargebacks", until: "2999-01-31" }),
    ).toMatchObject({
      ok: true,
    });
    const [bob] = await t.db
      .select()
      .from(user)
      .where(eq(user.id, ids.bob ?? ""));
    expect(bob).toMatchObject({ banned: true, banReason: "Chargebacks" });
    expect(bob?.banExpires?.toISOString()).toBe("2999-01-31T23:59:59.999Z");
    expect(
      await t.db
        .select()
        .from(session)
        .where(eq(session.userId, ids.bob ?? "")),
    ).toEqual([]);
    expect(await auth.api.getSession({ headers: new Headers({ cookie: bobSession }) })).toBeNull();
    await expect(signIn("bob@example.com")).rejects.toThrow();
    const [ban] = await audits("user.ban");
    expect(ban).toMatchObject({
      targetId: ids.bob,
      before: { banned: false },
      after: { banned: true, banReason: "Chargebacks", banExpires: "2999-01-31T23:59:59.999Z" },
    });

    expect(await actions.banUserAction({ userId: ids.bob, reason: "x", until: "" })).toMatchObject({
      ok: false,
      fieldErrors: { reason: expect.any(String) },
    });
    expect(
      await actions.banUserAction({ userId: ids.bob, reason: "past", until: "2001-01-01" }),
    ).toMatchObject({ ok: false, fieldErrors: { until: expect.any(String) } });

    expect(await actions.unbanUserAction({ userId: ids.bob })).toMatchObject({ ok: true });
    expect((await audits("user.unban"))[0]).toMatchObject({
      before: { banned: true },
      after: { banned: false },
    });
    cookies.bob = await signIn("bob@example.com");
  });

  it("revokes every session of a user", async () => {
    as("root");
    await signIn("alice@example.com");
    const before = await t.db
      .select()
      .from(session)
      .where(eq(session.userId, ids.alice ?? ""));
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(await actions.revokeSessionsAction({ userId: ids.alice })).toMatchObject({ ok: true });
    expect(
      await t.db
        .select()
        .from(session)
        .where(eq(session.userId, ids.alice ?? "")),
    ).toEqual([]);
    expect((await audits("user.revoke-sessions"))[0]).toMatchObject({
      targetId: ids.alice,
      before: { sessions: before.length },
      after: { sessions: 0 },
    });
    cookies.alice = await signIn("alice@example.com");
  });

  it("deletes only with the email typed as confirmation", async () => {
    await signUp("carol", "user");
    as("root");
    expect(await actions.deleteUserAction({ userId: ids.carol, confirm: "carol" })).toMatchObject({
      ok: false,
      fieldErrors: { confirm: "Type carol@example.com to confirm." },
    });
    expect(
      await actions.deleteUserAction({ userId: ids.carol, confirm: "CAROL@example.com " }),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await t.db
        .select()
        .from(user)
        .where(eq(user.id, ids.carol ?? "")),
    ).toEqual([]);
    expect((await audits("user.delete"))[0]).toMatchObject({
      targetId: ids.carol,
      before: { email: "carol@example.com", role: "user" },
      after: null,
    });
  });

  it("marks a contact message handled", async () => {
    const [msg] = await t.db
      .insert(contactMessages)
      .values({ name: "N", email: "n@example.com", topic: "support", message: "Hello there" })
      .returning();
    as("root");
    expect(await actions.setContactHandledAction({ id: msg?.id, handled: true })).toMatchObject({ ok: true });
    const [after] = await t.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, msg?.id ?? ""));
    expect(after?.handledAt).toBeInstanceOf(Date);
    expect((await audits("contact.set-handled"))[0]).toMatchObject({
      targetId: msg?.id,
      after: { handled: true },
    });
  });
});

describe("impersonation", () => {
  it("starts, shows as an impersonation that cannot reach admin, expires, and stops back to the admin", async () => {
    as("root");
    expect(await actions.impersonateAction({ userId: ids.root })).toMatchObject({ ok: false });
    expect(await actions.impersonateAction({ userId: ids.second })).toEqual({
      ok: false,
      error: "Admins cannot be impersonated.",
    });
    expect(await actions.impersonateAction({ userId: ids.alice })).toMatchObject({ ok: true });
    const token = [...setCookies.entries()].find(([k]) => k.endsWith("session_token"))?.[1];
    const adminCookie = [...setCookies.entries()].find(([k]) => k.endsWith("admin_session"));
    expect(token).toBeTruthy();
    expect(adminCookie).toBeTruthy();
    const [imp] = await t.db
      .select()
      .from(session)
      .where(and(eq(session.userId, ids.alice ?? ""), eq(session.impersonatedBy, ids.root ?? "")));
    expect(imp).toBeTruthy();
    // One hour at most.
    expect((imp?.expiresAt.getTime() ?? 0) - Date.now()).toBeLessThanOrEqual(3600_000);
    expect((await audits("user.impersonate"))[0]).toMatchObject({ actorId: ids.root, targetId: ids.alice });

    const impCookie = [...setCookies.entries()]
      .filter(([k]) => k.endsWith("session_token") || k.endsWith("admin_session"))
      .map(([k, v]) => `${k}=${v}`)
      .join("; ");
    setCookies.clear();
    as(impCookie);
    // Seen as alice, but neither admin pages nor admin actions are reachable.
    expect(await isAdmin()).toBe(false);
    await t.db
      .update(user)
      .set({ role: "admin" })
      .where(eq(user.id, ids.alice ?? ""));
    expect(await isAdmin()).toBe(false);
    expect(await actions.setRoleAction({ userId: ids.bob, role: "admin" })).toEqual({
      ok: false,
      error: "Not found.",
    });
    await t.db
      .update(user)
      .set({ role: "user" })
      .where(eq(user.id, ids.alice ?? ""));

    expect(await actions.stopImpersonatingAction({})).toMatchObject({ ok: true });
    const restored = [...setCookies.entries()].find(([k]) => k.endsWith("session_token"))?.[1];
    expect(restored).toBeTruthy();
    expect(restored).not.toBe(token);
    expect(
      await t.db
        .select()
        .from(session)
        .where(eq(session.id, imp?.id ?? "")),
    ).toEqual([]);
    expect((await audits("user.stop-impersonating"))[0]).toMatchObject({
      actorId: ids.root,
      actorEmail: "root@example.com",
      targetId: ids.alice,
    });
    // Not impersonating: nothing to stop.
    as("alice");
    expect(await actions.stopImpersonatingAction({})).toEqual({
      ok: false,
      error: "You are not impersonating anyone.",
    });
  });

  it("an expired impersonation session is no session at all", async () => {
    as("root");
    expect(await actions.impersonateAction({ userId: ids.bob })).toMatchObject({ ok: true });
    const impCookie = [...setCookies.entries()]
      .filter(([k]) => k.endsWith("session_token"))
      .map(([k, v]) => `${k}=${v}`)
      .join("; ");
    expect(await auth.api.getSession({ headers: new Headers({ cookie: impCookie }) })).not.toBeNull();
    await t.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.impersonatedBy, ids.root ?? ""));
    expect(await auth.api.getSession({ headers: new Headers({ cookie: impCookie }) })).toBeNull();
  });
});

describe("FX rates", () => {
  it("previews an ECB file without changing anything, then applies it, audited, telling ratesChanged", async () => {
    as("root");
    const versionBefore = await ratesVersion();
    const text = ecbWith("2026-11-21", "1.2001");
    const preview = await actions.previewRatesAction({ kind: "ecb-xml", text, date: "" });
    expect(preview).toMatchObject({ ok: true, data: { dates: ["2026-11-21"], added: 29, issues: [] } });
    if (!preview.ok) return;
    expect(preview.data.current.find((c) => c.currency === "USD")).toEqual({
      currency: "USD",
      before: "1.1582",
      beforeDate: "2026-11-20",
      after: "1.2001",
      date: "2026-11-21",
    });
    expect((await loadRateTable(t.db)).rates.USD).toBe("1.1582");
    expect(await ratesVersion()).toBe(versionBefore);

    expect(await actions.applyRatesAction({ kind: "ecb-xml", text, date: "" })).toMatchObject({ ok: true });
    const table = await loadRateTable(t.db);
    expect(table).toMatchObject({ date: "2026-11-21" });
    expect(table.rates.USD).toBe("1.2001");
    expect(await ratesVersion()).toBe(versionBefore + 1);
    const [row] = await audits("fx.import");
    expect(row).toMatchObject({ targetLabel: "ECB XML: 2026-11-21" });
    expect(row?.before).toMatchObject({ USD: "1.1582" });
    expect(row?.after).toMatchObject({ rates: { USD: "1.2001" } });
    // Applying the same file again changes no current rate.
    const again = await actions.previewRatesAction({ kind: "ecb-xml", text, date: "" });
    expect(again).toMatchObject({ ok: true, data: { current: [], added: 0, unchanged: 29 } });
  });

  it("an older file fills the history but leaves newer current rates alone", async () => {
    as("root");
    expect(
      await actions.applyRatesAction({ kind: "ecb-xml", text: ecbWith("2026-10-01", "1.05"), date: "" }),
    ).toMatchObject({ ok: true, data: { current: [] } });
    expect((await loadRateTable(t.db)).rates.USD).toBe("1.2001");
    const [old] = await t.db
      .select()
      .from(fxRateHistory)
      .where(and(eq(fxRateHistory.ratesDate, "2026-10-01"), eq(fxRateHistory.currency, "USD")));
    expect(old).toMatchObject({ rate: "1.05", source: "ecb-xml" });
  });

  it("refuses to apply files with row issues or that do not read, changing nothing", async () => {
    as("root");
    const before = await loadRateTable(t.db);
    const bad: [string, "ecb-xml" | "csv", string, string][] = [
      ["negative rate", "ecb-xml", ecbWith("2026-11-22", "-1"), ""],
      ["zero rate", "ecb-xml", ecbWith("2026-11-22", "0"), ""],
      ["unknown currency", "csv", "currency,rate\nUSD,1.3\nXYZ,2", "2026-11-22"],
      ["wrong date", "csv", "date,currency,rate\n2026-02-30,USD,1.3", ""],
      ["not xml", "ecb-xml", "<html><body>hello</body></html>", ""],
      ["truncated", "ecb-xml", ECB.slice(0, 400), ""],
    ];
    for (const [, kind, text, date] of bad) {
      expect((await actions.applyRatesAction({ kind, text, date })).ok).toBe(false);
    }
    const preview = await actions.previewRatesAction({
      kind: "csv",
      text: bad[2]?.[2] ?? "",
      date: "2026-11-22",
    });
    expect(preview).toMatchObject({
      ok: true,
      data: { issues: [{ where: "line 3", message: "Unknown currency XYZ", line: 3 }] },
    });
    // Over the size cap: refused by the schema before any parsing.
    const huge = await actions.applyRatesAction({ kind: "csv", text: "x".repeat(900_000), date: "" });
    expect(huge).toMatchObject({ ok: false, fieldErrors: { text: "The file is too large" } });
    expect(await loadRateTable(t.db)).toEqual(before);
  });

  it("imports a CSV and edits one rate, each audited", async () => {
    as("root");
    const csv = "currency,rate\nUSD,1.3333\nJPY,190.5\n";
    expect(await actions.applyRatesAction({ kind: "csv", text: csv, date: "2026-11-22" })).toMatchObject({
      ok: true,
    });
    expect((await loadRateTable(t.db)).rates.JPY).toBe("190.5");
    expect((await audits("fx.import"))[0]).toMatchObject({ targetLabel: "CSV: 2026-11-22" });

    expect(await actions.editRateAction({ currency: "gbp", rate: "0.9", date: "2026-11-23" })).toMatchObject({
      ok: true,
    });
    const [gbp] = await t.db.select().from(fxRates).where(eq(fxRates.currency, "GBP"));
    expect(gbp).toMatchObject({ rate: "0.9", ratesDate: "2026-11-23" });
    expect((await audits("fx.edit"))[0]).toMatchObject({
      targetId: "GBP",
      before: { rate: "0.88125", date: "2026-11-21" },
      after: { rate: "0.9", date: "2026-11-23" },
    });
    for (const bad of [
      { currency: "EUR", rate: "1", date: "2026-11-23" },
      { currency: "XYZ", rate: "1", date: "2026-11-23" },
      { currency: "USD", rate: "-1", date: "2026-11-23" },
      { currency: "USD", rate: "0", date: "2026-11-23" },
      { currency: "USD", rate: "1", date: "2026-02-30" },
    ])
      expect((await actions.editRateAction(bad)).ok).toBe(false);
  });
});
