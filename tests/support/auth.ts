import { isAPIError } from "better-auth/api";
import { and, desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { type AuthConfig, createAuth } from "@/server/auth/auth";
import type { Db } from "@/server/db/client";
import { mailOutbox } from "@/server/db/schema";

export const TEST_ORIGIN = "http://localhost:3999";
export const TEST_PASSWORD = "a-long-unusual-passphrase";

export function createTestAuth(db: Db, overrides: Partial<AuthConfig> = {}) {
  return createAuth(db, {
    baseURL: TEST_ORIGIN,
    trustedOrigins: [TEST_ORIGIN],
    secret: "integration-test-secret-integration-test-secret",
    secureCookies: false,
    signInLimit: 10,
    signUpLimit: 1000,
    ...overrides,
  });
}
export type TestAuth = ReturnType<typeof createTestAuth>;

/** Request headers from one client address, optionally with cookies ("a=1; b=2"). */
export const client = (ip: string, cookie?: string) =>
  new Headers({ "x-forwarded-for": ip, origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) });

/** The name=value pairs of a response's Set-Cookie headers, joined for a Cookie header. */
export function cookiesOf(response: Response, existing = ""): string {
  const jar = new Map(
    existing
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair] as const),
  );
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";")[0] ?? "";
    const name = pair.slice(0, pair.indexOf("="));
    if (/max-age=0/i.test(header) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/**
 * The newest message to `to` (of `kind`). Mail is written after an auth endpoint has answered (see
 * `backgroundTasks` in auth.ts), so this looks again for up to `waitMs` before saying there is none.
 */
export async function latestMail(
  db: Db,
  to: string,
  kind?: (typeof mailOutbox.$inferSelect)["kind"],
  waitMs = 1_500,
) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const [row] = await db
      .select()
      .from(mailOutbox)
      .where(kind ? and(eq(mailOutbox.to, to), eq(mailOutbox.kind, kind)) : eq(mailOutbox.to, to))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    if (row || Date.now() >= deadline) return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The first http(s) link in a message's plain text. */
export function linkIn(text: string | undefined): string {
  const match = /(https?:\/\/\S+)/.exec(text ?? "");
  if (!match?.[1]) throw new Error(`no link in: ${text}`);
  return match[1];
}

export async function signIn(
  auth: TestAuth,
  email: string,
  ip = "10.0.0.1",
  password = TEST_PASSWORD,
  cookie = "",
) {
  const response = await auth.api.signInEmail({
    body: { email, password },
    headers: client(ip, cookie || undefined),
    asResponse: true,
  });
  expect(response.status).toBe(200);
  return cookiesOf(response, cookie);
}

/** Opens an emailed Better Auth link (verify-email) like a browser would; returns the response. */
export async function openLink(auth: TestAuth, link: string, ip = "10.0.0.1", cookie?: string) {
  return auth.handler(new Request(link, { headers: client(ip, cookie) }));
}

/** Signs up (no session), optionally confirms the address through the emailed link, then signs in. */
export async function signUp(
  auth: TestAuth,
  db: Db,
  email: string,
  opts: { ip?: string; verify?: boolean; name?: string } = {},
) {
  const ip = opts.ip ?? "10.0.0.1";
  const response = await auth.api.signUpEmail({
    body: { name: opts.name ?? "Test User", email, password: TEST_PASSWORD },
    headers: client(ip),
    asResponse: true,
  });
  expect(response.status).toBe(200);
  const id = ((await response.json()) as { user: { id: string } }).user.id;
  if (opts.verify !== false) {
    const mail = await latestMail(db, email, "verify-email");
    const opened = await openLink(auth, linkIn(mail?.text), ip);
    expect(opened.status).toBeLessThan(400);
  }
  const cookie = await signIn(auth, email, ip);
  return { id, cookie };
}

/**
 * A Better Auth endpoint named by its path, called as our server actions call it (`auth.api.*`,
 * which Better Auth's `disabledPaths` does not affect), answered as a Response. Bodies given as JSON
 * text are parsed first.
 */
export function callServerSide(
  auth: Pick<TestAuth, "api">,
  path: string,
  init: { body?: unknown; query?: Record<string, string>; headers: Headers },
): Promise<Response> {
  const endpoint = Object.values(auth.api).find((e) => (e as { path?: string }).path === path) as
    | ((input: Record<string, unknown>) => Promise<Response>)
    | undefined;
  if (!endpoint) throw new Error(`Better Auth has no endpoint ${path}`);
  const body = typeof init.body === "string" ? JSON.parse(init.body) : init.body;
  // A refusal from a before hook is thrown even with asResponse: answer it as the router would.
  return endpoint({ body, query: init.query, headers: init.headers, asResponse: true }).catch(
    (error: unknown) => {
      if (!isAPIError(error)) throw error;
      return Response.json(error.body ?? { message: error.message }, {
        status: error.statusCode,
        headers: error.headers,
      });
    },
  );
}
