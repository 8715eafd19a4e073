import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { TEST_CARDS } from "../../src/core/billing/test-cards";
import { DEMO_PASSWORD } from "./auth-helpers";
import { testSql } from "./support";

/**
 * What a server log must never hold, and that every line of it is JSON: used on the whole e2e run's
 * server log (global-teardown.ts) and on one journey's log (logs.spec.ts).
 *
 * The one exception, on a local instance (embedded database, no mail server), is the plain-text
 * `[mail]` line that prints a link that would have been mailed, for the person at the terminal: it
 * is not JSON, and mailed tokens may appear there, and only there.
 */
export type Secrets = {
  /** Never anywhere in the log. */
  always: Map<string, string>;
  /** Mailed tokens: never outside a local instance's `[mail]` line. */
  mailed: Map<string, string>;
};

export type Finding = { line: number; what: string; text: string };

/** Patterns no line may match: a session cookie, an API key, an authorization header's value. */
const PATTERNS: [string, RegExp][] = [
  ["a session cookie", /session_token=/],
  ["an API key", /abk_[A-Za-z0-9_-]{16,}/],
  ["a bearer token", /Bearer [A-Za-z0-9._~+/-]{16,}/],
];

const MAIL_LINE = /^\[mail\] /;

/** Checks each line of `text`: JSON with a level, and none of `secrets`. At most `max` findings. */
export function scanServerLog(text: string, secrets: Secrets, max = 20): Finding[] {
  const findings: Finding[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length && findings.length < max; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "") continue;
    const show = line.length > 200 ? `${line.slice(0, 200)}…` : line;
    if (MAIL_LINE.test(line)) {
      for (const [what, pattern] of PATTERNS)
        if (pattern.test(line)) findings.push({ line: i + 1, what, text: show });
      for (const [secret, what] of secrets.always)
        if (line.includes(secret)) findings.push({ line: i + 1, what, text: show });
      continue;
    }
    let parsed: { level?: unknown } | undefined;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) parsed = value as typeof parsed;
    } catch {}
    if (!parsed || parsed.level === undefined) {
      findings.push({ line: i + 1, what: "a line that is not a JSON log record", text: show });
      continue;
    }
    for (const [what, pattern] of PATTERNS)
      if (pattern.test(line)) findings.push({ line: i + 1, what, text: show });
    for (const [secret, what] of secrets.always)
      if (line.includes(secret)) findings.push({ line: i + 1, what, text: show });
    for (const [secret, what] of secrets.mailed)
      if (line.includes(secret)) findings.push({ line: i + 1, what, text: show });
  }
  return findings;
}

/**
 * Passwords the specs type (string literals next to a password field or named *PASSWORD), read from
 * the spec files themselves so that a new spec's password is covered without a list to keep.
 */
export function specPasswords(folder = path.resolve("tests/e2e")): string[] {
  const found = new Set<string>([DEMO_PASSWORD]);
  const patterns = [
    /assword"\)\.fill\("([^"]{8,})"\)/g,
    /PASSWORD = "([^"]{8,})"/g,
    /[Pp]assword: "([^"]{8,})"/g,
    /password \?\? "([^"]{8,})"/g,
  ];
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".ts"))) {
    const source = readFileSync(path.join(folder, file), "utf8");
    for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.add(match[1] ?? "");
  }
  found.delete("");
  return [...found];
}

/** Card numbers: the test provider's cards and any 13-19 digit number a spec types into a field. */
export function cardNumbers(folder = path.resolve("tests/e2e")): string[] {
  const found = new Set<string>(TEST_CARDS.map((card) => card.number));
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".ts"))) {
    const source = readFileSync(path.join(folder, file), "utf8");
    for (const match of source.matchAll(/fill\("([0-9 ]{13,23})"\)/g)) {
      const digits = (match[1] ?? "").replace(/ /g, "");
      if (digits.length >= 13 && digits.length <= 19) found.add(digits);
    }
  }
  const spaced = [...found].map((n) => n.replace(/(\d{4})(?=\d)/g, "$1 "));
  return [...found, ...spaced];
}

/** Long path segments and query values of the links in a mail's text: its tokens. */
export function mailedTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const link of text.match(/https?:\/\/\S+/g) ?? []) {
    if (!URL.canParse(link)) continue;
    const url = new URL(link);
    for (const segment of url.pathname.split("/")) if (segment.length >= 16) tokens.add(segment);
    for (const value of url.searchParams.values())
      if (value.length >= 16 && !value.includes("/")) tokens.add(value);
  }
  return [...tokens];
}

/**
 * Everything the run handled that must not be logged: the passwords the specs type, the card
 * numbers, and, from the run's database, every session token, every mailed link's token and every
 * pending verification token. Bounded: the newest 5,000 of each.
 */
export async function gatherSecrets(): Promise<Secrets> {
  const always = new Map<string, string>();
  const mailed = new Map<string, string>();
  for (const password of specPasswords()) always.set(password, "a password a spec typed");
  for (const card of cardNumbers()) always.set(card, "a card number");
  if (!process.env.DATABASE_URL) return { always, mailed };
  const sql = testSql();
  try {
    const sessions = await sql<
      { token: string }[]
    >`select token from session order by created_at desc limit 5000`;
    for (const { token } of sessions) always.set(token, "a session token");
    const mails = await sql<
      { text: string }[]
    >`select text from mail_outbox order by created_at desc limit 5000`;
    for (const mail of mails)
      for (const token of mailedTokens(mail.text)) mailed.set(token, "a mailed token");
    // Better Auth keys a pending reset or confirmation by its token: `reset-password:<token>`.
    const pending = await sql<{ identifier: string }[]>`
      select identifier from verification order by created_at desc limit 5000`;
    for (const { identifier } of pending)
      for (const part of identifier.split(":"))
        if (part.length >= 16 && !part.includes("@")) mailed.set(part, "a verification token");
  } finally {
    await sql.end({ timeout: 5 });
  }
  return { always, mailed };
}
