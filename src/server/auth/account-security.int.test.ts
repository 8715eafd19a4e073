import { and, eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  client,
  cookiesOf,
  createTestAuth,
  latestMail,
  linkIn,
  openLink,
  signIn,
  signUp,
  TEST_ORIGIN,
  TEST_PASSWORD,
} from "../../../tests/support/auth";
import { activeSubscription, createTestDatabase } from "../../../tests/support/db";
import {
  mailOutbox,
  member,
  rateLimitEvents,
  securityEvents,
  session,
  subscriptions,
  user,
  verification,
} from "../db/schema";
import { SIGN_IN_FAILURE_BUCKETS } from "./account-security";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createTestAuth>;

beforeAll(async () => {
  t = await createTestDatabase();
  auth = createTestAuth(t.db, { signInLimit: 3 });
});
afterAll(async () => {
  await t.drop();
});
afterEach(() => {
  vi.useRealTimers();
});

type Outcome = { ok: true; data: unknown } | { ok: false; code?: string; status?: string };
const outcome = <T>(promise: Promise<T>): Promise<Outcome> =>
  promise.then(
    (data) => ({ ok: true, data }),
    (error: { status?: string; body?: { code?: string } }) => ({
      ok: false,
      code: error.body?.code,
      status: error.status,
    }),
  );

const get = (path: string, cookie: string, ip = "10.9.0.1") =>
  auth.handler(new Request(new URL(`/api/auth${path}`, TEST_ORIGIN), { headers: client(ip, cookie) }));

let orgCounter = 0;
/**
 * An organization with a verified owner, a plain member and a pending owner invitation, on Team
 * (so the plan's member limit never is the reason an acceptance fails here).
 */
async function organizationWithInvitation(invitedEmail: string) {
  orgCounter += 1;
  const owner = await signUp(auth, t.db, `owner-${orgCounter}@example.com`, { ip: "10.9.0.1" });
  const created = (await auth.api.createOrganization({
    headers: client("10.9.0.1", owner.cookie),
    body: { name: `Org ${orgCounter}`, slug: `org-${orgCounter}` },
  })) as { id: string };
  await t.db.insert(subscriptions).values(activeSubscription(created.id, "team"));
  const plain = await signUp(auth, t.db, `member-${orgCounter}@example.com`, { ip: "10.9.0.1" });
  await t.db
    .insert(member)
    .values({ id: `m-${orgCounter}`, organizationId: created.id, userId: plain.id, role: "member" });
  const invitation = (await auth.api.createInvitation({
    headers: client("10.9.0.1", owner.cookie),
    body: { email: invitedEmail, role: "owner", organizationId: created.id },
  })) as { id: string };
  return { orgId: created.id, owner, plain, invitationId: invitation.id };
}

/**
 * An unconfirmed account cannot sign in; these tests also cover a session that exists anyway (made
 * before that rule): the account is confirmed to sign in, then marked unconfirmed again.
 */
async function signUpUnconfirmedWithSession(email: string, ip: string) {
  const { id } = await signUp(auth, t.db, email, { ip, verify: false });
  const refused = await outcome(
    auth.api.signInEmail({ body: { email, password: TEST_PASSWORD }, headers: client(ip) }),
  );
  expect(refused).toMatchObject({ ok: false, code: "EMAIL_NOT_VERIFIED" });
  await t.db.update(user).set({ emailVerified: true }).where(eq(user.id, id));
  const cookie = await signIn(auth, email, ip);
  await t.db.update(user).set({ emailVerified: false }).where(eq(user.id, id));
  return { id, cookie };
}

describe("organization takeover paths are closed", () => {
  it("a plain member cannot read pending invitations from Better Auth's endpoints", async () => {
    const org = await organizationWithInvitation("cfo-1@example.com");
    // The product lists invitations on its own pages: Better Auth's endpoints for them are refused
    // to everyone, over HTTP and from server code alike (surface.ts).
    for (const cookie of [org.plain.cookie, org.owner.cookie]) {
      for (const path of ["list-invitations", "get-full-organization"]) {
        const response = await get(`/organization/${path}?organizationId=${org.orgId}`, cookie);
        expect(response.status).toBe(404);
        expect(await response.text()).not.toContain("cfo-1@example.com");
        const direct = await outcome<unknown>(
          path === "list-invitations"
            ? auth.api.listInvitations({
                headers: client("10.9.0.1", cookie),
                query: { organizationId: org.orgId },
              })
            : auth.api.getFullOrganization({
                headers: client("10.9.0.1", cookie),
                query: { organizationId: org.orgId },
              }),
        );
        expect(direct).toMatchObject({ ok: false, status: "NOT_FOUND" });
      }
    }
  });

  it("signing up with the invited address is not enough: accepting needs the address confirmed", async () => {
    const org = await organizationWithInvitation("cfo-2@example.com");
    const attacker = await signUpUnconfirmedWithSession("cfo-2@example.com", "10.9.0.2");
    const accepted = await outcome(
      auth.api.acceptInvitation({
        headers: client("10.9.0.2", attacker.cookie),
        body: { invitationId: org.invitationId },
      }),
    );
    expect(accepted).toMatchObject({
      ok: false,
      code: "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION",
    });
    const rows = await t.db.select().from(member).where(eq(member.userId, attacker.id));
    expect(rows).toEqual([]);
    // Nor can an unconfirmed account list invitations addressed to it.
    const mine = await get("/organization/list-user-invitations", attacker.cookie, "10.9.0.2");
    expect(mine.status).toBe(404);
  });

  it("changing one's email to the invited address does nothing until the new mailbox confirms it", async () => {
    const org = await organizationWithInvitation("cfo-3@example.com");
    const attacker = await signUp(auth, t.db, "mallory@example.com", { ip: "10.9.0.3" });
    const changed = await outcome(
      auth.api.changeEmail({
        headers: client("10.9.0.3", attacker.cookie),
        body: { newEmail: "cfo-3@example.com" },
      }),
    );
    expect(changed.ok).toBe(true);
    const [row] = await t.db.select({ email: user.email }).from(user).where(eq(user.id, attacker.id));
    expect(row?.email).toBe("mallory@example.com");
    const accepted = await outcome(
      auth.api.acceptInvitation({
        headers: client("10.9.0.3", attacker.cookie),
        body: { invitationId: org.invitationId },
      }),
    );
    expect(accepted).toMatchObject({ ok: false, code: "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION" });
    // The confirmation went to the new address, not to the attacker.
    const mail = await latestMail(t.db, "cfo-3@example.com", "change-email");
    expect(mail?.subject).toBe("Confirm your new email address");
    expect(await latestMail(t.db, "mallory@example.com", "change-email")).toBeUndefined();
  });

  it("an unverified account cannot change its email without confirmation either", async () => {
    const org = await organizationWithInvitation("cfo-4@example.com");
    const attacker = await signUpUnconfirmedWithSession("unverified-mallory@example.com", "10.9.0.4");
    await auth.api.changeEmail({
      headers: client("10.9.0.4", attacker.cookie),
      body: { newEmail: "cfo-4@example.com" },
    });
    const [row] = await t.db.select({ email: user.email }).from(user).where(eq(user.id, attacker.id));
    expect(row?.email).toBe("unverified-mallory@example.com");
    const accepted = await outcome(
      auth.api.acceptInvitation({
        headers: client("10.9.0.4", attacker.cookie),
        body: { invitationId: org.invitationId },
      }),
    );
    expect(accepted.ok).toBe(false);
  });

  it("the confirmed owner of the invited address can accept (and the old address is told of a change)", async () => {
    const org = await organizationWithInvitation("cfo-5@example.com");
    const person = await signUp(auth, t.db, "cfo-5-old@example.com", { ip: "10.9.0.5" });
    await auth.api.changeEmail({
      headers: client("10.9.0.5", person.cookie),
      body: { newEmail: "cfo-5@example.com" },
    });
    const link = linkIn((await latestMail(t.db, "cfo-5@example.com", "change-email"))?.text);
    const opened = await openLink(auth, link, "10.9.0.5", person.cookie);
    expect(opened.status).toBeLessThan(400);
    const [row] = await t.db
      .select({ email: user.email, verified: user.emailVerified })
      .from(user)
      .where(eq(user.id, person.id));
    expect(row).toEqual({ email: "cfo-5@example.com", verified: true });
    const notice = await latestMail(t.db, "cfo-5-old@example.com", "security");
    expect(notice?.text).toContain("now cfo-5@example.com");
    const cookie = cookiesOf(opened, person.cookie);
    const accepted = await outcome(
      auth.api.acceptInvitation({
        headers: client("10.9.0.5", cookie),
        body: { invitationId: org.invitationId },
      }),
    );
    expect(accepted.ok).toBe(true);
    const [membership] = await t.db
      .select({ role: member.role })
      .from(member)
      .where(eq(member.userId, person.id));
    expect(membership?.role).toBe("owner");
  });
});

const attempt = (email: string, password: string, ip: string, cookie?: string) =>
  outcome(auth.api.signInEmail({ body: { email, password }, headers: client(ip, cookie) }));

const failureRows = (bucket: string) =>
  t.db.select().from(rateLimitEvents).where(eq(rateLimitEvents.bucket, bucket));

describe("sign-in lockout (failures only)", () => {
  it("does not count successful sign-ins", async () => {
    await signUp(auth, t.db, "frequent@example.com", { ip: "10.8.0.1" });
    for (let i = 0; i < 6; i++)
      expect((await attempt("frequent@example.com", TEST_PASSWORD, "10.8.0.1")).ok).toBe(true);
    const rows = await t.db
      .select()
      .from(rateLimitEvents)
      .where(
        and(
          eq(rateLimitEvents.bucket, SIGN_IN_FAILURE_BUCKETS.account),
          eq(rateLimitEvents.subject, "email:frequent@example.com"),
        ),
      );
    expect(rows).toEqual([]);
  });

  it("an attacker's failures block the attacker's client, not the account owner", async () => {
    await signUp(auth, t.db, "oscar@example.com", { ip: "10.8.0.2" });
    for (let i = 0; i < 3; i++) {
      expect(await attempt("oscar@example.com", "wrong-guess-number", "10.66.0.1")).toMatchObject({
        code: "INVALID_EMAIL_OR_PASSWORD",
      });
    }
    expect(await attempt("oscar@example.com", "wrong-guess-number", "10.66.0.1")).toMatchObject({
      code: "RATE_LIMITED",
    });
    // The limited client cannot even try a right password…
    expect(await attempt("oscar@example.com", TEST_PASSWORD, "10.66.0.1")).toMatchObject({
      code: "RATE_LIMITED",
    });
    // …but the owner, elsewhere, signs in.
    expect((await attempt("oscar@example.com", TEST_PASSWORD, "10.8.0.2")).ok).toBe(true);
  });

  it("per account: a growing delay after a few failures, never for a device the owner signed in from; success resets", async () => {
    const { cookie: ownerDevice } = await signUp(auth, t.db, "victim@example.com", { ip: "10.8.0.3" });
    // Guesses spread over many clients (so no per-client limit applies).
    for (let i = 0; i < 5; i++) {
      expect(await attempt("victim@example.com", "wrong-guess-number", `10.70.0.${i + 1}`)).toMatchObject({
        code: "INVALID_EMAIL_OR_PASSWORD",
      });
    }
    // An unknown device must now wait, even with the right password…
    expect(await attempt("victim@example.com", TEST_PASSWORD, "10.70.1.1")).toMatchObject({
      code: "RATE_LIMITED",
    });
    // …the owner's own device (it holds the signed device cookie) is not delayed.
    expect((await attempt("victim@example.com", TEST_PASSWORD, "10.8.0.3", ownerDevice)).ok).toBe(true);
    // And that success cleared the account's failures: nobody waits now.
    expect((await attempt("victim@example.com", TEST_PASSWORD, "10.70.1.2")).ok).toBe(true);
  });

  it("the per-account delay is a delay, not a lock: after it passes an attempt is evaluated", async () => {
    await signUp(auth, t.db, "patient@example.com", { ip: "10.8.0.4" });
    for (let i = 0; i < 5; i++)
      await attempt("patient@example.com", "wrong-guess-number", `10.71.0.${i + 1}`);
    expect(await attempt("patient@example.com", TEST_PASSWORD, "10.71.1.1")).toMatchObject({
      code: "RATE_LIMITED",
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await attempt("patient@example.com", TEST_PASSWORD, "10.71.1.1")).ok).toBe(true);
  });

  it("treats unknown addresses like known ones (no enumeration through the limits)", async () => {
    for (let i = 0; i < 5; i++)
      await attempt("nobody-at-all@example.com", "wrong-guess-number", `10.72.0.${i + 1}`);
    expect(await attempt("nobody-at-all@example.com", "wrong-guess-number", "10.72.1.1")).toMatchObject({
      code: "RATE_LIMITED",
    });
    expect(
      (await failureRows(SIGN_IN_FAILURE_BUCKETS.account)).some(
        (r) => r.subject === "email:nobody-at-all@example.com",
      ),
    ).toBe(true);
  });
});

describe("no enumeration", () => {
  it("sign-up answers alike for new and existing addresses; the existing owner is emailed", async () => {
    await signUp(auth, t.db, "taken@example.com", { ip: "10.7.0.1" });
    const body = { name: "Someone", password: TEST_PASSWORD };
    const existing = await auth.api.signUpEmail({
      body: { ...body, email: "taken@example.com" },
      headers: client("10.7.0.2"),
      asResponse: true,
    });
    const fresh = await auth.api.signUpEmail({
      body: { ...body, email: "fresh@example.com" },
      headers: client("10.7.0.2"),
      asResponse: true,
    });
    expect(existing.status).toBe(fresh.status);
    expect(await existing.json()).toEqual(await fresh.json());
    // The same cookies (a confirmation attempt for this browser), values aside.
    const names = (r: Response) => r.headers.getSetCookie().map((c) => c.replace(/=[^;]*/, "="));
    expect(names(existing)).toEqual(names(fresh));
    expect(existing.headers.getSetCookie().join()).not.toContain("session_token");
    expect((await latestMail(t.db, "taken@example.com", "account-exists"))?.subject).toBe(
      "You already have an Abacus account",
    );
    expect((await latestMail(t.db, "fresh@example.com", "verify-email"))?.subject).toBe(
      "Confirm your email address",
    );
  });

  it("password reset answers alike whether or not the address has an account", async () => {
    await signUp(auth, t.db, "resetter@example.com", { ip: "10.7.0.3" });
    const known = await auth.api.requestPasswordReset({
      body: { email: "resetter@example.com" },
      headers: client("10.7.0.3"),
    });
    const unknown = await auth.api.requestPasswordReset({
      body: { email: "ghost@example.com" },
      headers: client("10.7.0.3"),
    });
    expect(known).toEqual(unknown);
    expect(await latestMail(t.db, "ghost@example.com")).toBeUndefined();
  });

  it("email change answers alike whether or not another account uses the address", async () => {
    const { cookie } = await signUp(auth, t.db, "changer@example.com", { ip: "10.7.0.4" });
    await signUp(auth, t.db, "occupied@example.com", { ip: "10.7.0.4" });
    const toTaken = await auth.api.changeEmail({
      headers: client("10.7.0.4", cookie),
      body: { newEmail: "occupied@example.com" },
    });
    const toFree = await auth.api.changeEmail({
      headers: client("10.7.0.4", cookie),
      body: { newEmail: "vacant@example.com" },
    });
    expect(toTaken).toEqual(toFree);
  });
});

describe("password reset", () => {
  async function requestReset(email: string) {
    await auth.api.requestPasswordReset({ body: { email }, headers: client("10.6.0.1") });
    const link = linkIn((await latestMail(t.db, email, "reset-password"))?.text);
    expect(link.startsWith(`${TEST_ORIGIN}/sign-in/reset-password?token=`)).toBe(true);
    return new URL(link).searchParams.get("token") ?? "";
  }

  it("is single-use and signs out every other session", async () => {
    const { id } = await signUp(auth, t.db, "forgetful@example.com", { ip: "10.6.0.1" });
    await signIn(auth, "forgetful@example.com", "10.6.0.2");
    // Signed in on several devices (the confirmation link, then two password sign-ins).
    expect((await t.db.select().from(session).where(eq(session.userId, id))).length).toBeGreaterThan(1);
    const token = await requestReset("forgetful@example.com");
    await auth.api.resetPassword({
      body: { token, newPassword: "brand-new-unusual-passphrase" },
      headers: client("10.6.0.1"),
    });
    expect(await t.db.select().from(session).where(eq(session.userId, id))).toEqual([]);
    const again = await outcome(
      auth.api.resetPassword({
        body: { token, newPassword: "yet-another-unusual-passphrase" },
        headers: client("10.6.0.1"),
      }),
    );
    expect(again).toMatchObject({ ok: false, code: "INVALID_TOKEN" });
    expect((await attempt("forgetful@example.com", "brand-new-unusual-passphrase", "10.6.0.1")).ok).toBe(
      true,
    );
    const kinds = (await t.db.select().from(securityEvents).where(eq(securityEvents.userId, id))).map(
      (e) => e.kind,
    );
    expect(kinds).toContain("password-reset");
  });

  it("expires", async () => {
    await signUp(auth, t.db, "late@example.com", { ip: "10.6.0.3" });
    const token = await requestReset("late@example.com");
    await t.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.identifier, `reset-password:${token}`));
    const late = await outcome(
      auth.api.resetPassword({
        body: { token, newPassword: "brand-new-unusual-passphrase" },
        headers: client("10.6.0.3"),
      }),
    );
    expect(late).toMatchObject({ ok: false, code: "INVALID_TOKEN" });
  });

  it("refuses a weak new password", async () => {
    await signUp(auth, t.db, "weakreset@example.com", { ip: "10.6.0.4" });
    const token = await requestReset("weakreset@example.com");
    const weak = await outcome(
      auth.api.resetPassword({ body: { token, newPassword: "abcabcabcabc" }, headers: client("10.6.0.4") }),
    );
    expect(weak).toMatchObject({ ok: false, code: "WEAK_PASSWORD" });
  });
});

describe("two-factor authentication", () => {
  async function enableTotp(email: string, ip: string) {
    const { id, cookie } = await signUp(auth, t.db, email, { ip });
    const { totpURI, backupCodes } = (await auth.api.enableTwoFactor({
      headers: client(ip, cookie),
      body: { password: TEST_PASSWORD },
    })) as { totpURI: string; backupCodes: string[] };
    const totp = new TOTP({ secret: Secret.fromBase32(new URL(totpURI).searchParams.get("secret") ?? "") });
    return { id, cookie, totp, backupCodes };
  }

  it("TOTP with a fixed clock: the current code turns it on and signs in; an old one does not", async () => {
    const now = new Date("2026-11-23T04:00:10Z");
    vi.useFakeTimers({ toFake: ["Date"], now });
    const { id, cookie, totp } = await enableTotp("totp@example.com", "10.5.0.1");
    const old = totp.generate({ timestamp: now.getTime() - 120_000 });
    expect(
      (await outcome(auth.api.verifyTOTP({ headers: client("10.5.0.1", cookie), body: { code: old } }))).ok,
    ).toBe(false);
    const code = totp.generate({ timestamp: now.getTime() });
    expect(
      (await outcome(auth.api.verifyTOTP({ headers: client("10.5.0.1", cookie), body: { code } }))).ok,
    ).toBe(true);
    const [row] = await t.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, id));
    expect(row?.on).toBe(true);
    const kinds = (await t.db.select().from(securityEvents).where(eq(securityEvents.userId, id))).map(
      (e) => e.kind,
    );
    expect(kinds).toContain("two-factor-enabled");

    // Signing in now stops after the password…
    const first = await auth.api.signInEmail({
      body: { email: "totp@example.com", password: TEST_PASSWORD },
      headers: client("10.5.0.1"),
      asResponse: true,
    });
    expect(await first.json()).toMatchObject({ twoFactorRedirect: true });
    const pending = cookiesOf(first);
    expect(pending).not.toContain("session_token");
    // …and finishes with a code from the app.
    vi.setSystemTime(new Date(now.getTime() + 30_000));
    const wrong = await outcome(
      auth.api.verifyTOTP({ headers: client("10.5.0.1", pending), body: { code: old } }),
    );
    expect(wrong.ok).toBe(false);
    const second = await auth.api.verifyTOTP({
      headers: client("10.5.0.1", pending),
      body: { code: totp.generate({ timestamp: now.getTime() + 30_000 }) },
      asResponse: true,
    });
    expect(second.status).toBe(200);
    expect(cookiesOf(second)).toContain("session_token");
  });

  it("backup codes work once each", async () => {
    const { cookie, totp, backupCodes } = await enableTotp("backup@example.com", "10.5.0.2");
    await auth.api.verifyTOTP({ headers: client("10.5.0.2", cookie), body: { code: totp.generate() } });
    const code = backupCodes[0] ?? "";
    const pendingSignIn = async () =>
      cookiesOf(
        await auth.api.signInEmail({
          body: { email: "backup@example.com", password: TEST_PASSWORD },
          headers: client("10.5.0.2"),
          asResponse: true,
        }),
      );
    const first = await outcome(
      auth.api.verifyBackupCode({ headers: client("10.5.0.2", await pendingSignIn()), body: { code } }),
    );
    expect(first.ok).toBe(true);
    const reused = await outcome(
      auth.api.verifyBackupCode({ headers: client("10.5.0.2", await pendingSignIn()), body: { code } }),
    );
    expect(reused.ok).toBe(false);
  });

  it("turning it off needs the password", async () => {
    const { id, cookie, totp } = await enableTotp("off@example.com", "10.5.0.3");
    const on = await auth.api.verifyTOTP({
      headers: client("10.5.0.3", cookie),
      body: { code: totp.generate() },
      asResponse: true,
    });
    // Turning it on replaced the session: continue with the new cookie.
    const current = cookiesOf(on, cookie);
    const wrong = await outcome(
      auth.api.disableTwoFactor({
        headers: client("10.5.0.3", current),
        body: { password: "not-my-password" },
      }),
    );
    expect(wrong.ok).toBe(false);
    const right = await outcome(
      auth.api.disableTwoFactor({ headers: client("10.5.0.3", current), body: { password: TEST_PASSWORD } }),
    );
    expect(right.ok).toBe(true);
    const [row] = await t.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, id));
    expect(row?.on).toBe(false);
    const kinds = (await t.db.select().from(securityEvents).where(eq(securityEvents.userId, id))).map(
      (e) => e.kind,
    );
    expect(kinds).toContain("two-factor-disabled");
  });
});

describe("outbox and security events", () => {
  it("keeps every message with plain and HTML bodies", async () => {
    const rows = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "fresh@example.com"));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.status).toBe("kept");
      expect(row.text).toContain(TEST_ORIGIN);
      expect(row.html).toContain("<!doctype html>");
    }
  });

  it("records a sign-in from a new device and a password change", async () => {
    const { id } = await signUp(auth, t.db, "events@example.com", { ip: "10.4.0.1" });
    // signUp's sign-in was the account's first (no notice); this browser has not been seen.
    const cookie = await signIn(auth, "events@example.com", "10.4.0.2");
    await auth.api.changePassword({
      headers: client("10.4.0.2", cookie),
      body: {
        currentPassword: TEST_PASSWORD,
        newPassword: "changed-unusual-passphrase",
        revokeOtherSessions: true,
      },
    });
    const kinds = (await t.db.select().from(securityEvents).where(eq(securityEvents.userId, id))).map(
      (e) => e.kind,
    );
    expect(kinds).toEqual(expect.arrayContaining(["new-device-sign-in", "password-changed"]));
    expect((await latestMail(t.db, "events@example.com", "security"))?.subject).toMatch(/^Security notice/);
  });
});
