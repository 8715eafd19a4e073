/**
 * The route table: every page route, who may see it, and where it appears in navigation. The
 * proxy, the page-view counter, the navigation and the routes e2e spec derive from it, so adding a
 * page is one line here (plus the page, which still calls its guard from server/authz).
 *
 * Audiences: `public` anyone; `auth` the sign-in/up screens (signed-in visitors are sent on);
 * `signed-in` any signed-in user (organization pages check membership themselves);
 * `org-manager` an owner or admin of the active organization; `admin` a platform administrator.
 */
export type Audience = "public" | "auth" | "signed-in" | "org-manager" | "admin";

/** Where a route is listed: the site's main navigation, the app shell, or its admin section. */
export type NavSection = "main" | "app" | "admin";

export type RouteEntry = {
  path: string;
  audience: Audience;
  /** Every path below it shows the same screen (sign-in steps, profile tabs…). */
  catchAll?: boolean;
  /** Every unknown path below it has the same audience (the admin area reveals nothing to others). */
  area?: boolean;
  nav?: { label: string; section: NavSection };
};

export const ROUTES = [
  { path: "/", audience: "public" },
  { path: "/calculator", audience: "public", nav: { label: "Calculator", section: "main" } },
  { path: "/pricing", audience: "public", nav: { label: "Pricing", section: "main" } },
  { path: "/docs", audience: "public", nav: { label: "Docs", section: "main" } },
  { path: "/contact", audience: "public", nav: { label: "Contact", section: "main" } },
  { path: "/sign-in", audience: "auth", catchAll: true },
  { path: "/sign-up", audience: "auth", catchAll: true },
  { path: "/onboarding", audience: "signed-in" },
  { path: "/dashboard", audience: "signed-in", nav: { label: "Dashboard", section: "app" } },
  { path: "/dashboard/billing", audience: "signed-in", nav: { label: "Billing", section: "app" } },
  {
    path: "/organization-profile",
    audience: "signed-in",
    catchAll: true,
    nav: { label: "Organization", section: "app" },
  },
  { path: "/user-profile", audience: "signed-in", catchAll: true, nav: { label: "Profile", section: "app" } },
  { path: "/checkout", audience: "org-manager" },
  { path: "/receipt", audience: "signed-in" },
  { path: "/invoices", audience: "signed-in" },
  { path: "/admin", audience: "admin", area: true, nav: { label: "Admin", section: "admin" } },
  { path: "/admin/users", audience: "admin", nav: { label: "Users", section: "admin" } },
  { path: "/admin/currency-test", audience: "admin", nav: { label: "Currency & FX", section: "admin" } },
  { path: "/admin/outbox", audience: "admin", nav: { label: "Outbox", section: "admin" } },
  { path: "/admin/billing", audience: "admin", nav: { label: "Billing", section: "admin" } },
  { path: "/admin/coupons", audience: "admin", nav: { label: "Coupons", section: "admin" } },
] as const satisfies readonly RouteEntry[];

export type RoutePath = (typeof ROUTES)[number]["path"];

const SIGNED_IN: ReadonlySet<Audience> = new Set(["signed-in", "org-manager", "admin"]);

/** Whether an audience needs a session at all (the proxy's early redirect to sign-in). */
export function needsSession(audience: Audience): boolean {
  return SIGNED_IN.has(audience);
}

function normalise(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
}

/** The route a pathname belongs to: an exact path, or a sub-path of a catch-all route. */
export function routeFor(pathname: string): RouteEntry | undefined {
  const path = normalise(pathname);
  const routes: readonly RouteEntry[] = ROUTES;
  return (
    routes.find((route) => route.path === path) ??
    routes.find((route) => route.catchAll && path.startsWith(`${route.path}/`))
  );
}

/** Whether an anonymous visitor to `pathname` should be sent to sign-in before anything renders. */
export function requiresSession(pathname: string): boolean {
  const path = normalise(pathname);
  const routes: readonly RouteEntry[] = ROUTES;
  const route = routeFor(path) ?? routes.find((r) => r.area && path.startsWith(`${r.path}/`));
  return route ? needsSession(route.audience) : false;
}

/** A route's name as navigation shows it, so a page's heading and title can say the same. */
export function routeLabel(path: RoutePath): string {
  const routes: readonly RouteEntry[] = ROUTES;
  const label = routes.find((route) => route.path === path)?.nav?.label;
  if (!label) throw new Error(`${path} has no navigation label`);
  return label;
}

/** The links of one navigation section, in table order. */
export function navLinks(section: NavSection): { href: string; label: string }[] {
  const routes: readonly RouteEntry[] = ROUTES;
  return routes.flatMap((route) =>
    route.nav?.section === section ? [{ href: route.path, label: route.nav.label }] : [],
  );
}

/**
 * The proxy's matcher, derived from the table. Next reads `config.matcher` in src/proxy.ts
 * statically, so it is written there as a literal; a unit test proves it equals this list.
 */
export function proxyMatcher(): string[] {
  const routes: readonly RouteEntry[] = ROUTES;
  const areas = routes.filter((route) => route.area);
  return routes.flatMap((route) => {
    if (!needsSession(route.audience)) return [];
    if (areas.some((area) => area !== route && route.path.startsWith(`${area.path}/`))) return [];
    return route.catchAll || route.area ? [route.path, `${route.path}/:path*`] : [route.path];
  });
}
