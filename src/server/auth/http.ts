import "server-only";
import { runWithAdapter } from "@better-auth/core/context";
import type { BetterAuthOptions } from "better-auth";
import { router } from "better-auth/api";
import type { Auth } from "./auth";
import { getAuth } from "./index";

export type AuthHttpHandler = (request: Request) => Promise<Response>;

const holder = globalThis as typeof globalThis & { __abacusAuthHttp?: Promise<AuthHttpHandler> };

/** The `/api/auth/*` handler of this process's Better Auth instance, built on first use. */
export function authHttpHandler(): Promise<AuthHttpHandler> {
  holder.__abacusAuthHttp ??= buildAuthHttpHandler(getAuth()).catch((error: unknown) => {
    holder.__abacusAuthHttp = undefined;
    throw error;
  });
  return holder.__abacusAuthHttp;
}

/**
 * Better Auth's HTTP handler, built once. `auth.handler` rebuilds its whole router (every endpoint
 * wrapped again, a new route tree) on each request: about a quarter of the CPU of a `get-session`
 * call. What it rebuilds depends on the request only when `baseURL`, `trustedOrigins` or
 * `trustedProviders` are dynamic (functions or a host allow-list); with fixed ones, the context made
 * at start-up (the same `getTrustedOrigins` over the same options) is what each request would get.
 * It is copied once, as `auth.handler` copies it per request, so the shared context is not written to.
 */
export async function buildAuthHttpHandler(auth: Auth): Promise<AuthHttpHandler> {
  const ctx = await auth.$context;
  const options: BetterAuthOptions = auth.options;
  const { baseURL, trustedOrigins } = options;
  const trustedProviders = options.account?.accountLinking?.trustedProviders;
  if (
    typeof baseURL !== "string" ||
    typeof trustedOrigins === "function" ||
    typeof trustedProviders === "function"
  ) {
    // Request-dependent configuration: keep Better Auth's own per-request path.
    return (request) => auth.handler(request);
  }
  const shared = Object.create(Object.getPrototypeOf(ctx), Object.getOwnPropertyDescriptors(ctx));
  const { handler } = router(shared, auth.options);
  return async (request) => runWithAdapter(shared.adapter, () => handler(request));
}
