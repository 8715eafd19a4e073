import { isAPIError } from "better-auth/api";
import { and, desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { MemberRole } from "@/core/auth/roles";
import type { ActionEnvironment } from "@/server/action";
import { type AuthConfig, createAuth } from "@/server/auth/auth";
import { handleAuthHttp } from "@/server/auth/hardening";
import { AUTH_SURFACE } from "@/server/auth/surface";
import type { Db } from "@/server/db/client";
import { mailOutbox, member, organization, session, user } from "@/server/db/schema";

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

/**
 * POSTs JSON to a Better Auth endpoint as the product reaches it: like a browser on TEST_ORIGIN
 * for the endpoints served over HTTP, and as our server actions do (`auth.api.*`, with the same
 * client headers and cookies) for the ones served only to them (src/server/auth/surface.ts).
 */
export async function post(auth: TestAuth, path: string, body: unknown, ip = "10.0.0.1", cookie?: string) {
  if (AUTH_SURFACE[path]?.exposure !== "http") {
    return callServerSide(auth, path, { body, headers: client(ip, cookie) });
  }
  const headers = client(ip, cookie);
  headers.set("content-type", "application/json");
  return auth.handler(
    new Request(new URL(`/api/auth${path}`, TEST_ORIGIN), {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
  );
}

/**
 * The code and the link token of the newest confirmation mail to `email`, once there are at least
 * `nth` of them (mail is written after the answer: a second one may still be on its way).
 */
export async function confirmationOf(db: Db, email: string, nth = 1) {
  for (let waited = 0; waited < 3_000; waited += 50) {
    const rows = await db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, "verify-email")));
    if (rows.length >= nth) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const mail = await latestMail(db, email, "verify-email");
  const code = /confirmation code: (\d{6})/.exec(mail?.text ?? "")?.[1];
  const link = new URL(linkIn(mail?.text));
  return { code: code ?? "", token: link.searchParams.get("token") ?? "", link: link.toString(), mail };
}

/**
 * Opens a confirmation link as a person would: a Better Auth link is a GET; ours opens a page whose
 * "Confirm" button POSTs the token. Returns the response that could set cookies.
 */
export async function openConfirmationLink(auth: TestAuth, link: string, ip = "10.0.0.1", cookie?: string) {
  const url = new URL(link);
  if (url.pathname.startsWith("/api/auth/")) return openLink(auth, link, ip, cookie);
  return post(auth, "/email-confirmation/link", { token: url.searchParams.get("token") }, ip, cookie);
}

/**
 * Signs up, confirms the address through the emailed link (opened in another browser: no session),
 * then signs in. With `verify: false` nothing is confirmed and there is no session (cookie "").
 */
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
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email.toLowerCase()));
  const id = row?.id ?? "";
  if (opts.verify === false) return { id, cookie: "" };
  const { link } = await confirmationOf(db, email);
  const opened = await openConfirmationLink(auth, link, ip);
  expect(opened.status).toBeLessThan(400);
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

/**
 * POST to a Better Auth endpoint as the product reaches it, from `ip` on `origin`: through the
 * route's own hardening (body cap, error shape) for the endpoints served over HTTP, through
 * `auth.api` as our server actions do for the rest (which answer 404 over HTTP).
 */
export function authPoster(auth: Pick<TestAuth, "api" | "handler">, origin: string, ip: string) {
  return (path: string, body: unknown, cookie?: string) => {
    const headers = { origin, "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) };
    if (AUTH_SURFACE[path]?.exposure !== "http") {
      return callServerSide(auth, path, { body, headers: new Headers(headers) });
    }
    return handleAuthHttp(
      new Request(`${origin}/api/auth${path}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      (request) => auth.handler(request),
    );
  };
}

/**
 * A signed-in account without the mail round trip: signed up, then marked confirmed and onboarded
 * in the database, then signed in. For tests of what a session may do, not of how one is made.
 */
export async function confirmedSession(
  auth: Pick<TestAuth, "api">,
  db: Db,
  name: string,
  ip = "10.0.0.9",
): Promise<{ id: string; cookie: string }> {
  const email = `${name}@example.com`;
  const response = await auth.api.signUpEmail({
    body: { name, email, password: TEST_PASSWORD },
    headers: client(ip),
    asResponse: true,
  });
  expect(response.status).toBe(200);
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  const id = row?.id ?? "";
  await db.update(user).set({ onboardingStep: "done", emailVerified: true }).where(eq(user.id, id));
  const signedIn = await auth.api.signInEmail({
    body: { email, password: TEST_PASSWORD },
    headers: client(ip),
    asResponse: true,
  });
  expect(signedIn.status).toBe(200);
  return { id, cookie: cookiesOf(signedIn) };
}

/** What `signedInOrganization` made: each person's user id and session cookie, by name. */
export interface SignedInOrganization<Name extends string> {
  ids: Record<Name, string>;
  cookies: Record<Name, string>;
  /** The request a server action (`action.using(...)`) runs in for `name`; signed out for anyone else. */
  environment: (name: string) => ActionEnvironment;
}

/**
 * An organization with its people signed in, for tests of server actions: the organization, then a
 * `confirmedSession` for each person (`{ olga: "owner", mia: "member" }`, named `<name>@example.com`)
 * whose active organization it is, then each one's membership with the given role.
 */
export async function signedInOrganization<Name extends string>(
  auth: TestAuth,
  db: Db,
  org: { id: string; name: string; slug: string },
  people: Record<Name, MemberRole>,
): Promise<SignedInOrganization<Name>> {
  await db.insert(organization).values(org);
  const roles = Object.entries(people) as [Name, MemberRole][];
  const ids = {} as Record<Name, string>;
  const cookies = {} as Record<Name, string>;
  for (const [name] of roles) {
    const account = await confirmedSession(auth, db, name);
    ids[name] = account.id;
    cookies[name] = account.cookie;
    await db.update(session).set({ activeOrganizationId: org.id }).where(eq(session.userId, account.id));
  }
  await db.insert(member).values(
    roles.map(([name, role]) => ({
      id: `${org.id}-${name}`,
      organizationId: org.id,
      userId: ids[name],
      role,
    })),
  );
  const cookieOf = (name: string) => (Object.hasOwn(cookies, name) ? cookies[name as Name] : "");
  return {
    ids,
    cookies,
    environment: (name) => ({
      db,
      auth,
      headers: new Headers({ origin: TEST_ORIGIN, cookie: cookieOf(name) }),
      setCookies: async () => {},
    }),
  };
}
