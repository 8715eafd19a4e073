import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callServerSide, client, createTestAuth, signUp } from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import { mailOutbox } from "../db/schema";
import { createMailer, type Mailer } from "../mail/outbox";
import { mailTemplates } from "../mail/templates";
import { DEFAULT_MAIL_LIMITS, limitMailPerRecipient, SECURITY_NOTICES_PER_HOUR } from "./mail-limits";

// Anyone could make the instance mail a victim without limit: 60 password-reset requests sent 60
// mails in 3.4 s. Limits per recipient address and per client now hold, in PostgreSQL, without
// telling an address with an account from one without.
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createTestAuth>;
let mailer: Mailer;

beforeAll(async () => {
  t = await createTestDatabase();
  mailer = createMailer(t.db);
  auth = createTestAuth(t.db, { mailer, signInLimit: 100 });
  await signUp(auth, t.db, "victim@mail.test", { ip: "10.33.0.1" });
});
afterAll(async () => {
  await mailer.flush();
  await t.drop();
});

const mails = async (to: string, kind: (typeof mailOutbox.$inferSelect)["kind"]) => {
  await mailer.flush();
  const [row] = await t.db
    .select({ n: count() })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, kind)));
  return row?.n ?? 0;
};

/** A reset request as the forgot-password form makes it, answered as a Response. */
const requestReset = (email: string, ip: string) =>
  callServerSide(auth, "/request-password-reset", {
    body: { email, redirectTo: "/sign-in/reset-password" },
    headers: client(ip),
  });
const shape = async (response: Response) => ({ status: response.status, body: await response.text() });

describe("mail per recipient", () => {
  it("60 reset requests for one address from 60 clients send at most the recipient's limit", async () => {
    const answers = [];
    for (let i = 0; i < 60; i++)
      answers.push(await shape(await requestReset("victim@mail.test", `10.33.1.${i}`)));
    // The sign-up's confirmation link was the first of the address's requested mails this hour.
    expect(await mails("victim@mail.test", "verify-email")).toBe(1);
    expect(await mails("victim@mail.test", "reset-password")).toBe(DEFAULT_MAIL_LIMITS.perRecipient - 1);
    // Every answer is the one an unknown address gets: the limit is invisible to the caller.
    const unknown = await shape(await requestReset("nobody@mail.test", "10.33.2.1"));
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify(unknown)]));
  });

  it("keeps a separate allowance for security notices, so requested mail cannot crowd them out", async () => {
    const limited = limitMailPerRecipient(t.db, mailer, DEFAULT_MAIL_LIMITS);
    const notice = mailTemplates.security("http://localhost", { title: "t", detail: "d", when: "now" });
    for (let i = 0; i < SECURITY_NOTICES_PER_HOUR + 3; i++) await limited.send("victim@mail.test", notice);
    expect(await mails("victim@mail.test", "security")).toBe(SECURITY_NOTICES_PER_HOUR);
  });
});

describe("mail requests per client", () => {
  it("refuses one client past its limit with the same 429 for known and unknown addresses", async () => {
    const ip = "10.33.3.1";
    const answers = [];
    for (let i = 0; i < DEFAULT_MAIL_LIMITS.perClient; i++) {
      const email = i % 2 === 0 ? "victim@mail.test" : `stranger-${i}@mail.test`;
      answers.push((await requestReset(email, ip)).status);
    }
    expect(answers.every((status) => status === 200)).toBe(true);
    const known = await shape(await requestReset("victim@mail.test", ip));
    const unknown = await shape(await requestReset("nobody-else@mail.test", ip));
    expect(known.status).toBe(429);
    expect(unknown).toEqual(known);
    // Another client is not affected.
    expect((await requestReset("nobody-else@mail.test", "10.33.3.2")).status).toBe(200);
  });

  it("counts every endpoint that mails on request: verification links and email changes too", async () => {
    const ip = "10.33.4.1";
    const { cookie } = await signUp(auth, t.db, "changer@mail.test", { ip: "10.33.0.1" });
    const statuses = [];
    for (let i = 0; i < DEFAULT_MAIL_LIMITS.perClient + 1; i++) {
      const response =
        i % 2 === 0
          ? await callServerSide(auth, "/send-verification-email", {
              body: { email: `someone-${i}@mail.test` },
              headers: client(ip),
            })
          : await callServerSide(auth, "/change-email", {
              body: { newEmail: `third-party-${i}@mail.test` },
              headers: client(ip, cookie),
            });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
