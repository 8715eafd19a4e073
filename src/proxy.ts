import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import {
  encodePlanChoice,
  PLAN_CHOICE_COOKIE,
  PLAN_CHOICE_MAX_AGE,
  planChoiceFromQuery,
} from "@/core/billing/plan-choice";
import { requiresSession } from "@/core/routes";

/**
 * A convenience, not the guard: anonymous visitors to signed-in routes are sent to sign-in early,
 * without rendering anything. Pages, actions and endpoints still call their guards (server/authz).
 * Which routes need a session comes from the route table (core/routes.ts).
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  let response: NextResponse;
  if (!requiresSession(pathname) || getSessionCookie(request)) {
    response = NextResponse.next();
  } else {
    const target = new URL("/sign-in", request.url);
    target.searchParams.set("redirect_url", `${pathname}${search}`);
    response = NextResponse.redirect(target);
  }
  // A plan picked on the pricing page is remembered through sign-up, email confirmation and
  // onboarding (whose plan step offers it), however the visitor gets there.
  // Next.js strips its prefetch headers before the proxy, so a prefetch of checkout would look like
  // a visit: the links to checkout are therefore never prefetched (pricing table, billing section).
  const choice = pathname === "/checkout" ? planChoiceFromQuery(request.nextUrl.searchParams) : null;
  if (choice) {
    response.cookies.set(PLAN_CHOICE_COOKIE, encodePlanChoice(choice), {
      path: "/",
      maxAge: PLAN_CHOICE_MAX_AGE,
      sameSite: "lax",
      httpOnly: true,
      secure: request.nextUrl.protocol === "https:",
    });
  }
  return response;
}

export const config = {
  // Next reads this statically, so it is a literal: `proxyMatcher()` from core/routes.ts, which
  // src/proxy.test.ts checks it against. Only signed-in routes, so public pages skip the proxy.
  matcher: [
    "/onboarding",
    "/dashboard",
    "/dashboard/billing",
    "/organization-profile",
    "/organization-profile/:path*",
    "/user-profile",
    "/user-profile/:path*",
    "/checkout",
    "/receipt",
    "/invoices",
    "/admin",
    "/admin/:path*",
  ],
};
