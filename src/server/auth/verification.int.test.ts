import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callServerSide,
  client,
  confirmationOf,
  cookiesOf,
  createTestAuth,
  latestMail,
  linkIn,
  openConfirmationLink,
  post,
  signIn,
  signUp,
  TEST_ORIGIN,
  TEST_PASSWORD,
} from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import { mailOutbox, member, passkey, securityEvents, session, twoFactor, user } from "../db/schema";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createTestAuth>;

beforeAll(async () => {
  t = await createTestDatabase();
  auth = createTestAuth(t.db);
});
afterAll(async () => {
  await t.drop();
});

const ATTACKER_PASSWORD = "attackers-own-long-passphrase";
const hasSession = (response: Response) =>
  response.headers.getSetCookie().some((c) => /session_token=[^;]+/.test(c) && !/max-age=0/i.test(c));

async function rawSignUp(email: string, password: string, ip: string, name = "Someone") {
  const response = await post(auth, "/sign-up/email", { name, email, password }, ip);
  expect(response.status).toBe(200);
  return response;
}

async function rawSignIn(email: string, password: string, ip: string, cookie?: string) {
  return post(auth, "/sign-in/email", { email, password }, ip, cookie);
}

const userId = async (email: string) =>
  (await t.db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]?.id ?? "";

/**
 * What an attacker who signed up first with the victim's address had on the account before sign-in
 * required a confirmed address: a TOTP secret, a passkey and a session (written as they were).
 */
async function plantSquatterFactors(id: string) {
  await t.db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, id));
  await t.db
    .insert(twoFactor)
    .values({ id: `tf-${id}`, secret: "planted", backupCodes: "planted", userId: id });
  await t.db.insert(passkey).values({
    id: `pk-${id}`,
    name: "Attacker's key",
    publicKey: "planted",
    userId: id,
    credentialID: `cred-${id}`,
    counter: 0,
    deviceType: "singleDevice",
    backedUp: false,
  });
  await t.db.insert(session).values({
    id: `s-${id}`,
    token: `squatter-token-${id}`,
    userId: id,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
}

async function factorsOf(id: string) {
  const [row] = await t.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, id));
  return {
    twoFactorEnabled: row?.on,
    secrets: (await t.db.select().from(twoFactor).where(eq(twoFactor.userId, id))).length,
    passkeys: (await t.db.select().from(passkey).where(eq(passkey.userId, id))).length,
    sessions: (await t.db.select().from(session).where(eq(session.userId, id))).map((s) => s.token),
  };
}

describe("an account whose address is not confirmed", () => {
  it("cannot sign in (the right password gets no session, and a new code for this browser)", async () => {
    await rawSignUp("unconfirmed@example.com", TEST_PASSWORD, "10.20.0.1");
    const response = await rawSignIn("unconfirmed@example.com", TEST_PASSWORD, "10.20.0.1");
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code?: string }).code).toBe("EMAIL_NOT_VERIFIED");
    expect(hasSession(response)).toBe(false);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("abacus_confirm="))).toBe(true);
  });

  it("cannot turn on two-factor or register a passkey, even with a session from before", async () => {
    const { id, cookie } = await signUp(auth, t.db, "legacy-session@example.com", { ip: "10.20.0.2" });
    // A session made before the rule (or while the address was still unproven).
    await t.db.update(user).set({ emailVerified: false }).where(eq(user.id, id));
    const enable = await post(auth, "/two-factor/enable", { password: TEST_PASSWORD }, "10.20.0.2", cookie);
    expect(enable.status).toBe(403);
    const options = await callServerSide(auth, "/passkey/generate-register-options", {
      headers: client("10.20.0.2", cookie),
    });
    expect(options.status).toBe(403);
    expect(await t.db.select().from(twoFactor).where(eq(twoFactor.userId, id))).toEqual([]);
  });
});

describe("confirmation links never sign anybody in by themselves", () => {
  it("send-verification-email (no session) plus the link confirms, with no session, and no second-factor bypass", async () => {
    const { id } = await signUp(auth, t.db, "has-2fa@example.com", { ip: "10.21.0.1" });
    // An unconfirmed account with a second factor (planted as before the rules).
    await t.db.update(user).set({ emailVerified: false }).where(eq(user.id, id));
    await plantSquatterFactors(id);
    const sent = await post(auth, "/send-verification-email", { email: "has-2fa@example.com" }, "10.66.0.1");
    expect(sent.status).toBe(200);
    const link = linkIn((await latestMail(t.db, "has-2fa@example.com", "verify-email"))?.text);
    const opened = await openConfirmationLink(auth, link, "10.66.0.1");
    expect(opened.status).toBeLessThan(400);
    expect(hasSession(opened)).toBe(false);
    const [row] = await t.db.select({ verified: user.emailVerified }).from(user).where(eq(user.id, id));
    expect(row?.verified).toBe(true);
  });

  it("a link sent to someone else signs that browser in to nothing (no login CSRF), and a signed-in victim stays themselves", async () => {
    await rawSignUp("mallory-own@example.com", ATTACKER_PASSWORD, "10.66.0.2", "Mallory");
    const link = linkIn((await latestMail(t.db, "mallory-own@example.com", "verify-email"))?.text);
    // The victim opens Mallory's link, signed in as themselves.
    const victim = await signUp(auth, t.db, "victim-csrf@example.com", { ip: "10.21.0.2" });
    const opened = await openConfirmationLink(auth, link, "10.21.0.2", victim.cookie);
    expect(opened.status).toBeLessThan(400);
    expect(hasSession(opened)).toBe(false);
    const still = await auth.api.getSession({
      headers: client("10.21.0.2", cookiesOf(opened, victim.cookie)),
    });
    expect(still?.user.email).toBe("victim-csrf@example.com");
    // Signed out, the same kind of link signs in nobody either.
    await rawSignUp("mallory-two@example.com", ATTACKER_PASSWORD, "10.66.0.3", "Mallory");
    const second = linkIn((await latestMail(t.db, "mallory-two@example.com", "verify-email"))?.text);
    const anonymous = await openConfirmationLink(auth, second, "10.21.0.3");
    expect(hasSession(anonymous)).toBe(false);
  });

  it("an email-change link opened signed out asks for the account's sign-in instead of signing in", async () => {
    const { cookie } = await signUp(auth, t.db, "changer-csrf@example.com", { ip: "10.21.0.4" });
    await auth.api.changeEmail({
      headers: client("10.21.0.4", cookie),
      body: { newEmail: "changed-csrf@example.com", callbackURL: "/user-profile" },
    });
    const link = linkIn((await latestMail(t.db, "changed-csrf@example.com", "change-email"))?.text);
    const opened = await auth.handler(new Request(link, { headers: client("10.21.0.5") }));
    expect(hasSession(opened)).toBe(false);
    expect(opened.headers.get("location") ?? "").toMatch(/^\/sign-in\?redirect_url=/);
    const [row] = await t.db.select().from(user).where(eq(user.email, "changer-csrf@example.com"));
    expect(row).toBeTruthy();
  });
});

describe("the 6-digit code", () => {
  it("confirms and signs in the browser that signed up, and only that browser", async () => {
    const response = await rawSignUp("coder@example.com", TEST_PASSWORD, "10.22.0.1");
    const browser = cookiesOf(response);
    const { code } = await confirmationOf(t.db, "coder@example.com");
    expect(code).toMatch(/^\d{6}$/);
    // Without the sign-up's cookie the code is worth nothing.
    const elsewhere = await post(auth, "/email-confirmation/code", { code }, "10.66.0.4");
    expect(elsewhere.status).toBe(400);
    const confirmed = await post(auth, "/email-confirmation/code", { code }, "10.22.0.1", browser);
    expect(confirmed.status).toBe(200);
    expect(hasSession(confirmed)).toBe(true);
    // The first sign-in is not news: no "new device" mail for it.
    expect(await latestMail(t.db, "coder@example.com", "security", 300)).toBeUndefined();
  });

  it("takes a few wrong guesses per attempt, then only the link or a new code", async () => {
    const response = await rawSignUp("guessed@example.com", TEST_PASSWORD, "10.22.0.2");
    const browser = cookiesOf(response);
    const { code } = await confirmationOf(t.db, "guessed@example.com");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      const guess = await post(auth, "/email-confirmation/code", { code: wrong }, "10.22.0.2", browser);
      expect(((await guess.json()) as { code?: string }).code).toBe("INVALID_CODE");
    }
    const right = await post(auth, "/email-confirmation/code", { code }, "10.22.0.2", browser);
    expect(((await right.json()) as { code?: string }).code).toBe("TOO_MANY_ATTEMPTS");
    const resent = await post(auth, "/email-confirmation/resend", {}, "10.22.0.2", browser);
    expect(resent.status).toBe(200);
    const fresh = await confirmationOf(t.db, "guessed@example.com", 2);
    const now = await post(auth, "/email-confirmation/code", { code: fresh.code }, "10.22.0.2", browser);
    expect(now.status).toBe(200);
  });
});

describe("pre-account hijacking: confirming the mailbox wipes what a squatter set up", () => {
  it("the real owner's sign-up replaces the squatter's password; their factors and sessions go; the owner is told", async () => {
    await rawSignUp("owner-a@example.com", ATTACKER_PASSWORD, "10.66.0.5", "Mallory");
    const id = await userId("owner-a@example.com");
    await plantSquatterFactors(id);
    // The real owner signs up with the same address and their own password (the same answer as ever).
    const mine = await rawSignUp("owner-a@example.com", TEST_PASSWORD, "10.23.0.1", "Olivia Owner");
    const { code } = await confirmationOf(t.db, "owner-a@example.com", 2);
    const confirmed = await post(auth, "/email-confirmation/code", { code }, "10.23.0.1", cookiesOf(mine));
    expect(confirmed.status).toBe(200);
    expect(hasSession(confirmed)).toBe(true);
    const after = await factorsOf(id);
    expect(after).toMatchObject({ twoFactorEnabled: false, secrets: 0, passkeys: 0 });
    expect(after.sessions).not.toContain(`squatter-token-${id}`);
    expect(after.sessions).toHaveLength(1);
    const [row] = await t.db
      .select({ name: user.name, verified: user.emailVerified })
      .from(user)
      .where(eq(user.id, id));
    expect(row).toEqual({ name: "Olivia Owner", verified: true });
    const notice = await latestMail(t.db, "owner-a@example.com", "security");
    expect(notice?.subject).toBe("Security notice: your email address was confirmed");
    expect(notice?.text).toContain("two-factor authentication, 1 passkey, 1 signed-in session");
    expect((await rawSignIn("owner-a@example.com", ATTACKER_PASSWORD, "10.66.0.5")).status).toBe(401);
    expect((await rawSignIn("owner-a@example.com", TEST_PASSWORD, "10.23.0.2")).status).toBe(200);
  });

  it("confirming by the link of the squatter's own sign-up also removes their factors", async () => {
    await rawSignUp("owner-b@example.com", ATTACKER_PASSWORD, "10.66.0.6", "Mallory");
    const id = await userId("owner-b@example.com");
    await plantSquatterFactors(id);
    const link = linkIn((await latestMail(t.db, "owner-b@example.com", "verify-email"))?.text);
    const opened = await openConfirmationLink(auth, link, "10.23.0.3");
    expect(hasSession(opened)).toBe(false);
    expect(await factorsOf(id)).toEqual({ twoFactorEnabled: false, secrets: 0, passkeys: 0, sessions: [] });
  });

  it("a password reset through the mailbox removes them too, confirms the address and tells the owner", async () => {
    await rawSignUp("owner-c@example.com", ATTACKER_PASSWORD, "10.66.0.7", "Mallory");
    const id = await userId("owner-c@example.com");
    await plantSquatterFactors(id);
    await auth.api.requestPasswordReset({
      body: { email: "owner-c@example.com" },
      headers: client("10.23.0.4"),
    });
    const token =
      new URL(
        linkIn((await latestMail(t.db, "owner-c@example.com", "reset-password"))?.text),
      ).searchParams.get("token") ?? "";
    await auth.api.resetPassword({
      body: { token, newPassword: "the-owners-new-passphrase" },
      headers: client("10.23.0.4"),
    });
    expect(await factorsOf(id)).toEqual({ twoFactorEnabled: false, secrets: 0, passkeys: 0, sessions: [] });
    const [row] = await t.db.select({ verified: user.emailVerified }).from(user).where(eq(user.id, id));
    expect(row?.verified).toBe(true);
    const notice = await latestMail(t.db, "owner-c@example.com", "security");
    expect(notice?.text).toContain(
      "two-factor authentication and 1 passkey set up before your address was confirmed",
    );
    // The owner signs in with the new password and no second step planted by someone else.
    const signedIn = await rawSignIn("owner-c@example.com", "the-owners-new-passphrase", "10.23.0.4");
    expect(signedIn.status).toBe(200);
    expect(hasSession(signedIn)).toBe(true);
  });
});

describe("sign-up answers alike", () => {
  it("for a new address, one with a confirmed account and one with an unconfirmed account", async () => {
    await signUp(auth, t.db, "confirmed-one@example.com", { ip: "10.24.0.1" });
    await rawSignUp("pending-one@example.com", TEST_PASSWORD, "10.24.0.1");
    const answers = [];
    for (const email of ["confirmed-one@example.com", "pending-one@example.com", "brand-new@example.com"]) {
      const response = await rawSignUp(email, TEST_PASSWORD, "10.24.0.2", "Same Name");
      answers.push({
        status: response.status,
        body: await response.text(),
        cookies: response.headers
          .getSetCookie()
          .map((c) => c.replace(/=[^;]*/, "=…"))
          .sort(),
      });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]?.body).not.toMatch(/role|user_|"id"/);
  });
});

describe("organizations", () => {
  it("asking for an organization one is not a member of leaves the active organization alone", async () => {
    const a = await signUp(auth, t.db, "org-a@example.com", { ip: "10.25.0.1" });
    const b = await signUp(auth, t.db, "org-b@example.com", { ip: "10.25.0.2" });
    const mine = (await auth.api.createOrganization({
      headers: client("10.25.0.1", a.cookie),
      body: { name: "Mine", slug: "mine-verification" },
    })) as { id: string };
    const theirs = (await auth.api.createOrganization({
      headers: client("10.25.0.2", b.cookie),
      body: { name: "Theirs", slug: "theirs-verification" },
    })) as { id: string };
    // The session that made the organization has it active (before the fix, the link had signed in
    // a second session, without one).
    const activeIn = async () =>
      (await t.db.select().from(session).where(eq(session.userId, a.id)))
        .filter((s) => s.activeOrganizationId === mine.id)
        .map((s) => s.id);
    const before = await activeIn();
    expect(before).toHaveLength(1);
    const denied = await auth.handler(
      new Request(
        new URL(`/api/auth/organization/get-full-organization?organizationId=${theirs.id}`, TEST_ORIGIN),
        {
          headers: client("10.25.0.1", a.cookie),
        },
      ),
    );
    // The product does not use this endpoint: it is off (404), and the active organization stays.
    expect(denied.status).toBe(404);
    expect(await activeIn()).toEqual(before);
    expect(
      await t.db
        .select()
        .from(member)
        .where(and(eq(member.userId, a.id), eq(member.organizationId, theirs.id))),
    ).toEqual([]);
  });
});

describe("new-device notices", () => {
  it("the very first sign-in sends none; a later one from another device does", async () => {
    await rawSignUp("first-time@example.com", TEST_PASSWORD, "10.26.0.1");
    const { token } = await confirmationOf(t.db, "first-time@example.com");
    await post(auth, "/email-confirmation/link", { token }, "10.26.0.2");
    await signIn(auth, "first-time@example.com", "10.26.0.3");
    expect(await latestMail(t.db, "first-time@example.com", "security", 300)).toBeUndefined();
    await signIn(auth, "first-time@example.com", "10.26.0.4");
    expect((await latestMail(t.db, "first-time@example.com", "security"))?.subject).toBe(
      "Security notice: new sign-in from a device we have not seen",
    );
    const id = await userId("first-time@example.com");
    const kinds = (await t.db.select().from(securityEvents).where(eq(securityEvents.userId, id))).map(
      (e) => e.kind,
    );
    expect(kinds).toEqual(expect.arrayContaining(["email-confirmed", "first-sign-in", "new-device-sign-in"]));
    expect(
      await t.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, "first-time@example.com"), eq(mailOutbox.kind, "security"))),
    ).toHaveLength(1);
  });
});
