import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";

/**
 * A convenience, not the guard: anonymous visitors to signed-in routes are sent to sign-in early,
 * without rendering anything. Pages, actions and endpoints still call their guards (server/authz).
 */
export function proxy(request: NextRequest) {
  if (getSessionCookie(request)) return NextResponse.next();
  const { pathname, search } = request.nextUrl;
  const target = new URL("/sign-in", request.url);
  target.searchParams.set("redirect_url", `${pathname}${search}`);
  return NextResponse.redirect(target);
}

export const config = {
  matcher: [
    "/checkout",
    "/receipt",
    "/onboarding",
    "/dashboard",
    "/admin",
    "/admin/:path*",
    "/user-profile",
    "/user-profile/:path*",
    "/organization-profile",
    "/organization-profile/:path*",
  ],
};
