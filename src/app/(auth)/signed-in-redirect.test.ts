import { beforeEach, describe, expect, it, vi } from "vitest";

// A signed-in visitor of /sign-in or /sign-up is sent on to `redirect_url`, and
// `/.//evil.com` came back as `Location: //evil.com`. These render the two pages themselves (the
// viewer stubbed as signed in) and read where Next.js's redirect() would send the browser.
vi.mock("@/server/authz", () => ({
  getViewer: async () => ({ sessionId: "s", user: { id: "u" } }),
}));
vi.mock("@/features/onboarding/invitation-preview", () => ({
  invitationIdIn: () => null,
  previewInvitation: async () => null,
}));

const PAYLOADS = [
  "/.//evil.com",
  "/..//evil.com",
  "/%2e//evil.com",
  "/a/..//evil.com",
  "/%2e%2e//evil.com",
  "//evil.com",
  "/\\evil.com",
  "/\\\\evil.com",
  "/\t/evil.com",
  "https://evil.com/",
];

/** The Location a redirect() thrown while rendering would answer with. */
async function locationOf(render: () => Promise<unknown>): Promise<string> {
  try {
    await render();
  } catch (error) {
    const digest = String((error as { digest?: unknown }).digest ?? "");
    const [kind, , url] = digest.split(";");
    if (kind === "NEXT_REDIRECT" && url !== undefined) return url;
    throw error;
  }
  throw new Error("the page rendered instead of redirecting");
}

describe("signed-in visitors of the auth screens with a hostile redirect_url", () => {
  let signIn: typeof import("./sign-in/[[...rest]]/page").default;
  let signUp: typeof import("./sign-up/[[...rest]]/page").default;
  beforeEach(async () => {
    signIn = (await import("./sign-in/[[...rest]]/page")).default;
    signUp = (await import("./sign-up/[[...rest]]/page")).default;
  });

  it.each(PAYLOADS)("%j stays on this site from /sign-in and /sign-up", async (payload) => {
    const searchParams = Promise.resolve({ redirect_url: payload });
    const fromSignIn = await locationOf(() => signIn({ params: Promise.resolve({}), searchParams }));
    const fromSignUp = await locationOf(() => signUp({ params: Promise.resolve({}), searchParams }));
    for (const location of [fromSignIn, fromSignUp]) {
      expect(location).toBe("/dashboard");
    }
  });

  it("still sends them to a same-site redirect_url", async () => {
    const searchParams = Promise.resolve({ redirect_url: "/pricing?currency=USD" });
    expect(await locationOf(() => signIn({ params: Promise.resolve({}), searchParams }))).toBe(
      "/pricing?currency=USD",
    );
    expect(await locationOf(() => signUp({ params: Promise.resolve({}), searchParams }))).toBe(
      "/pricing?currency=USD",
    );
  });
});
