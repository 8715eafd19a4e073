import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/support/db";
import { user } from "../db/schema";
import { createAuth } from "./auth";
import { handleAuthHttp } from "./hardening";
import { type AuthHttpHandler, buildAuthHttpHandler } from "./http";

// `/api/auth/*` goes through a handler built once per process instead of `auth.handler`,
// which rebuilt Better Auth's router on every request. It must answer exactly as before: sessions
// per caller, the origin check, the body cap and the token strip in front.
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let auth: ReturnType<typeof createAuth>;
let handler: AuthHttpHandler;
const origin = "http://localhost:3997";

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
  handler = await buildAuthHttpHandler(auth);
});
afterAll(async () => {
  await t.drop();
});

const http = (path: string, init: { body?: unknown; cookie?: string; from?: string } = {}) =>
  handleAuthHttp(
    new Request(`${origin}/api/auth${path}`, {
      method: init.body === undefined ? "GET" : "POST",
      headers: {
        origin: init.from ?? origin,
        "content-type": "application/json",
        "x-forwarded-for": "10.1.0.2",
        ...(init.cookie ? { cookie: init.cookie } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
    handler,
  );
const cookieOf = (response: Response) => (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

async function signedIn(email: string) {
  const password = "a-long-unusual-passphrase";
  expect((await http("/sign-up/email", { body: { name: "Built Once", email, password } })).status).toBe(200);
  await t.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  const signIn = await http("/sign-in/email", { body: { email, password } });
  expect(signIn.status).toBe(200);
  return cookieOf(signIn);
}

describe("the /api/auth handler built once", () => {
  it("answers each caller with their own session, concurrently", async () => {
    const [a, b] = await Promise.all([signedIn("once-a@example.com"), signedIn("once-b@example.com")]);
    const sessions = await Promise.all(
      [a, b, a, b, ""].map(async (cookie) => {
        const response = await http("/get-session", { cookie });
        expect(response.status).toBe(200);
        return ((await response.json()) as { user?: { email: string } } | null)?.user?.email ?? null;
      }),
    );
    expect(sessions).toEqual([
      "once-a@example.com",
      "once-b@example.com",
      "once-a@example.com",
      "once-b@example.com",
      null,
    ]);
  });

  it("answers as Better Auth's own per-request handler does", async () => {
    const cookie = await signedIn("once-d@example.com");
    const asked = [
      { path: "/get-session", cookie },
      { path: "/get-session" },
      { path: "/get-session", cookie: "unrelated=1" },
      { path: "/sign-in/email", body: { email: "once-d@example.com", password: "not-the-passphrase" } },
      { path: "/update-user", body: { name: "" }, cookie: "" },
      { path: "/ok" },
    ];
    const through = async (via: AuthHttpHandler) => {
      const answers = [];
      for (const { path, body, cookie: c } of asked) {
        const response = await handleAuthHttp(
          new Request(`${origin}/api/auth${path}`, {
            method: body === undefined ? "GET" : "POST",
            headers: {
              origin,
              "content-type": "application/json",
              "x-forwarded-for": "10.1.0.3",
              cookie: c ?? "",
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
          via,
        );
        const text = await response.text();
        // Session rows carry their own timestamps and ids: compare their shape, not their values.
        answers.push({
          status: response.status,
          body: text.replace(/"(id|token|createdAt|updatedAt|expiresAt)":"[^"]*"/g, '"$1":"…"'),
        });
      }
      return answers;
    };
    const built = await through(handler);
    // /update-user and /ok are not served over HTTP (surface.ts).
    expect(built.map((a) => a.status)).toEqual([200, 200, 200, 401, 404, 404]);
    expect(built).toEqual(await through((request) => auth.handler(request)));
  });

  it("answers an unknown endpoint 404 and signs out through the same router", async () => {
    expect((await http("/no-such-endpoint")).status).toBe(404);
    const cookie = await signedIn("once-c@example.com");
    expect((await http("/sign-out", { body: {}, cookie })).status).toBe(200);
    expect(await (await http("/get-session", { cookie })).json()).toBeNull();
  });
});
