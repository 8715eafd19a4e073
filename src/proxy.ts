import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { requiresSession } from "@/core/routes";

/**
 * A convenience, not the guard: anonymous visitors to signed-in routes are sent to sign-in early,
 * without rendering anything. Pages, actions and endpoints still call their guards (server/authz).
 * Which routes need a session comes from the route table (core/routes.ts); Next needs `matcher`
 * to be a literal, so it is broad (every page path) and the table decides.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (!requiresSession(pathname) || getSessionCookie(request)) return NextResponse.next();
  const target = new URL("/sign-in", request.url);
  target.searchParams.set("redirect_url", `${pathname}${search}`);
  return NextResponse.redirect(target);
}

export const config = {
  // Page paths only: not the API, Next's assets, the monitoring tunnel or files with an extension.
  matcher: ["/((?!api/|_next/|monitoring|.*\\..*).*)"],
};
