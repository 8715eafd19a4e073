import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS_CACHE_CONTROL } from "@/core/http/edge-contract";
import { callServerSide } from "../../../tests/support/auth";
import { createTestDatabase } from "../../../tests/support/db";
import { member, organization, passkey, user } from "../db/schema";
import { createAuth } from "./auth";
import { AUTH_BODY_LIMIT_BYTES, handleAuthHttp, toApiErrorShape, withoutTokens } from "./hardening";

// `/api/auth/*` once stored a 60,000,000-character name, a 20 KB organization name and the slug
// `Weird Slug/<x>`, and answered session tokens to scripts. These go through the same handler as the
// catch-all route (body cap, Better Auth, token strip, error shape).
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createAuth>;
const origin = "http://localhost:3998";

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
afterAll(async () => {
  await t.drop();
});

const http = (path: string, init: { body?: string | Uint8Array; cookie?: string; method?: string } = {}) =>
  handleAuthHttp(
    new Request(`${origin}/api/auth${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        origin,
        "content-type": "application/json",
        "x-forwarded-for": "10.1.0.1",
        ...(init.cookie ? { cookie: init.cookie } : {}),
      },
      body: init.body as BodyInit | undefined,
    }),
    (request) => auth.handler(request),
  );
/**
 * The endpoints served only to our server actions (404 at /api/auth), called as those actions call
 * them: the same hooks apply.
 */
const server = async (path: string, init: { body?: string; cookie?: string } = {}) =>
  toApiErrorShape(
    await callServerSide(auth, path, {
      body: init.body,
      headers: new Headers({
        origin,
        "x-forwarded-for": "10.1.0.1",
        ...(init.cookie ? { cookie: init.cookie } : {}),
      }),
    }),
  );
const json = (value: unknown) => JSON.stringify(value);
const cookieOf = (response: Response) => (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

/**
 * A confirmed account and a signed-in cookie. Sign-up itself no longer signs in (the emailed link
 * does), so the address is marked confirmed here and the user signs in with the password.
 */
async function signUp(email: string) {
  const response = await http("/sign-up/email", {
    body: json({ name: "Hardened User", email, password: "a-long-unusual-passphrase" }),
  });
  expect(response.status).toBe(200);
  await t.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  const signIn = await http("/sign-in/email", {
    body: json({ email, password: "a-long-unusual-passphrase" }),
  });
  expect(signIn.status).toBe(200);
  return { response, cookie: cookieOf(signIn) };
}

describe("the body cap on /api/auth/*", () => {
  it("refuses a body over the cap with 413 in the API's error shape, before Better Auth parses it", async () => {
    const body = json({
      name: "x".repeat(AUTH_BODY_LIMIT_BYTES),
      email: "cap@example.com",
      password: "a-long-unusual-passphrase",
    });
    const response = await http("/sign-up/email", { body });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "payload_too_large" } });
    expect(await t.db.select().from(user).where(eq(user.email, "cap@example.com"))).toHaveLength(0);
  });
});

describe("the forms' rules on Better Auth endpoints", () => {
  it("refuses a name longer than the form allows on update-user and sign-up", async () => {
    const { cookie } = await signUp("rules@example.com");
    const update = await server("/update-user", { body: json({ name: "n".repeat(101) }), cookie });
    expect(update.status).toBe(400);
    expect(await update.json()).toMatchObject({ error: { code: "invalid_input" } });
    const signUpLong = await http("/sign-up/email", {
      body: json({
        name: "n".repeat(20_000),
        email: "long@example.com",
        password: "a-long-unusual-passphrase",
      }),
    });
    expect(signUpLong.status).toBe(400);
    expect(await t.db.select().from(user).where(eq(user.email, "long@example.com"))).toHaveLength(0);
  });

  it("normalises what the form would (trimmed name)", async () => {
    const { cookie } = await signUp("trim@example.com");
    expect((await server("/update-user", { body: json({ name: "  Ada  " }), cookie })).status).toBe(200);
    const [row] = await t.db.select({ name: user.name }).from(user).where(eq(user.email, "trim@example.com"));
    expect(row?.name).toBe("Ada");
  });

  it("refuses a 20 KB organization name and a slug the form refuses; accepts a valid one", async () => {
    const { cookie } = await signUp("org@example.com");
    for (const body of [
      { name: "n".repeat(20_000), slug: "fine-slug" },
      { name: "Fine Name", slug: "Weird Slug/<x>" },
      { name: "Fine Name", slug: "x".repeat(49) },
    ]) {
      const response = await server("/organization/create", { body: json(body), cookie });
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    expect(await t.db.select().from(organization)).toHaveLength(0);
    const ok = await server("/organization/create", {
      body: json({ name: "Acme Finance", slug: "acme-finance" }),
      cookie,
    });
    expect(ok.status).toBe(200);
    const [org] = await t.db.select().from(organization);
    expect(org).toMatchObject({ name: "Acme Finance", slug: "acme-finance" });
    const rename = await server("/organization/update", {
      body: json({ organizationId: org?.id, data: { slug: "Bad Slug!" } }),
      cookie,
    });
    expect(rename.status).toBe(400);
    const invite = await server("/organization/invite-member", {
      body: json({ organizationId: org?.id, email: "not-an-email", role: "member" }),
      cookie,
    });
    expect(invite.status).toBe(400);
    expect(await t.db.select().from(member)).toHaveLength(1);
  });

  it("refuses a passkey name longer than the profile's form allows", async () => {
    const { cookie } = await signUp("passkey@example.com");
    const [owner] = await t.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "passkey@example.com"));
    await t.db.insert(passkey).values({
      id: "pk-hardening",
      name: "Laptop",
      publicKey: "key",
      userId: owner?.id ?? "",
      credentialID: "cred-hardening",
      counter: 0,
      deviceType: "singleDevice",
      backedUp: false,
    });
    const stored = async () =>
      (await t.db.select({ name: passkey.name }).from(passkey).where(eq(passkey.id, "pk-hardening")))[0]
        ?.name;
    const registration = await server("/passkey/verify-registration", {
      body: json({ response: {}, name: "n".repeat(61) }),
      cookie,
    });
    expect(registration.status).toBe(400);
    expect(await registration.json()).toMatchObject({ error: { code: "invalid_input" } });
    // Renaming is not a feature of the product: Better Auth's endpoint for it is refused.
    const rename = await server("/passkey/update-passkey", {
      body: json({ id: "pk-hardening", name: "Phone" }),
      cookie,
    });
    expect(rename.status).toBe(404);
    expect(await stored()).toBe("Laptop");
  });

  it("applies to auth.api calls from server code too", async () => {
    await expect(
      auth.api.signUpEmail({
        body: { name: "n".repeat(101), email: "api@example.com", password: "a-long-unusual-passphrase" },
      }),
    ).rejects.toThrow(/100 characters/);
  });
});

describe("session tokens", () => {
  it("are not in the bodies of sign-up, sign-in and get-session", async () => {
    const { response: signUpResponse, cookie } = await signUp("tokens@example.com");
    expect(JSON.stringify(await signUpResponse.json())).not.toMatch(/"token"/);
    const signIn = await http("/sign-in/email", {
      body: json({ email: "tokens@example.com", password: "a-long-unusual-passphrase" }),
    });
    expect(signIn.status).toBe(200);
    expect(cookieOf(signIn)).toMatch(/session_token=/);
    expect(JSON.stringify(await signIn.json())).not.toMatch(/"token"/);
    const session = await http("/get-session", { cookie });
    const sessionBody = (await session.json()) as { session?: Record<string, unknown> };
    expect(sessionBody.session?.id).toBeTruthy();
    expect(sessionBody.session).not.toHaveProperty("token");
  });

  it("a session read without credentials is Better Auth's own null, marked for the edge to repeat", async () => {
    const anonymous = await http("/get-session");
    expect(anonymous.status).toBe(200);
    expect(await anonymous.text()).toBe("null");
    expect(anonymous.headers.get("set-cookie")).toBeNull();
    expect(anonymous.headers.get("cache-control")).toBe(ANONYMOUS_CACHE_CONTROL);
    // With any cookie (even one that is not a session) the answer is Better Auth's, never marked.
    const withCookie = await http("/get-session", { cookie: "unrelated=1" });
    expect(withCookie.headers.get("cache-control")).not.toBe(ANONYMOUS_CACHE_CONTROL);
    const { cookie } = await signUp("anonymous-read@example.com");
    const signedIn = await http("/get-session", { cookie });
    expect(signedIn.headers.get("cache-control")).not.toBe(ANONYMOUS_CACHE_CONTROL);
  });

  it("withoutTokens removes nested token keys and keeps the rest", () => {
    expect(
      withoutTokens({ token: "a", session: { token: "b", id: "s" }, list: [{ token: "c", id: 1 }] }),
    ).toEqual({
      session: { id: "s" },
      list: [{ id: 1 }],
    });
  });
});

describe("error shape", () => {
  it("answers Better Auth's refusals as { error: { code, message } }", async () => {
    const response = await http("/sign-in/email", {
      body: json({ email: "nobody@example.com", password: "wrong-password-123" }),
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    expect(body.error?.code).toBeTruthy();
    expect(body.error?.message).toBeTruthy();
  });
});
