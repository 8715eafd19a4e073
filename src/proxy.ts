import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { requiresSession } from "@/core/routes";

/**
 * A convenience, not the guard: anonymous visitors to signed-in routes are sent to sign-in early,
 * without rendering anything. Pages, actions and endpoints still call their guards (server/authz).
 * Which routes need a session comes from the route table (core/routes.ts).
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (!requiresSession(pathname) || getSessionCookie(request)) return NextResponse.next();
  const target = new URL("/sign-in", request.url);
  target.searchParams.set("redirect_url", `${pathname}${search}`);
  return NextResponse.redirect(target);
}

export const config = {
  // Next reads this statically, so it is a literal: `proxyMatcher()` from core/routes.ts, which
  // src/proxy.test.ts checks it against. Only signed-in routes, so public pages skip the proxy.
  matcher: [
    "/onboarding",
    "/dashboard",
    "/organization-profile",
    "/organization-profile/:path*",
    "/user-profile",
    "/user-profile/:path*",
    "/checkout",
    "/receipt",
    "/admin",
    "/admin/:path*",
  ],
};
