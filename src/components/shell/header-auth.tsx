"use client";

import { Building2, ChevronsUpDown } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import type { ComponentType } from "react";
import { navLinks } from "@/core/routes";
import { MobileMenu } from "./mobile-menu";
import { type MeSummary, useViewer, type ViewerState } from "./viewer-store";

// The signed-in menus use Radix dropdowns; on static pages they load only for signed-in visitors.
// (App pages draw them with the page: header-auth-drawn.tsx imports them statically.)
const LazyMenus = dynamic(() => import("./signed-in-menus").then((m) => m.SignedInMenus), {
  ssr: false,
  loading: () => <SignedInStandIn />,
});

// One fixed-size, right-aligned box for every state (loading, signed out, signed in), so the
// answer from /api/me moves nothing else in the header: not its width, and not (by a fraction of a
// pixel, which a layout-shift observer still counts) the header's height.
const AREA = "hidden h-9 w-44 items-center justify-end gap-2 sm:flex lg:w-64";

const signedOutLinks = [
  { href: "/sign-in", label: "Sign in" },
  { href: "/sign-up", label: "Get started" },
];

/**
 * The header's account area on static pages: who is signed in is asked after the page loads; a box
 * of fixed size holds the place meanwhile so nothing shifts.
 */
export function HeaderAuth() {
  return <AccountArea viewer={useViewer()} Menus={LazyMenus} />;
}

/** The account area for a known state; `Menus` draws the signed-in organization and account menus. */
export function AccountArea({
  viewer,
  Menus,
}: {
  viewer: ViewerState;
  Menus: ComponentType<{ me: MeSummary }>;
}) {
  if (viewer.status === "signed-in") {
    const me = viewer.me;
    // The app shell's links, from the route table (Dashboard, Organization, Profile; Admin…).
    const links = [...navLinks("app"), ...(me.user.isAdmin ? navLinks("admin") : [])];
    return (
      <>
        <div className={AREA}>
          <Menus me={me} />
        </div>
        <MobileMenu authLinks={links} me={me} />
      </>
    );
  }
  return (
    <>
      <div className={AREA}>
        {viewer.status === "loading" ? <SignedInStandIn hinted /> : null}
        {viewer.status === "signed-out" || viewer.status === "loading" ? (
          <div className={viewer.status === "loading" ? "viewer-out contents" : "contents"}>
            <Link
              href="/sign-in"
              className="inline-flex h-8 items-center rounded-md px-3 text-[13px] font-medium hover:bg-muted"
            >
              Sign in
            </Link>
            <Link
              href="/sign-up"
              className="inline-flex h-8 items-center rounded-md bg-primary px-3 text-[13px] font-medium text-primary-foreground hover:bg-primary/90"
            >
              Get started
            </Link>
          </div>
        ) : null}
      </div>
      <MobileMenu authLinks={viewer.status === "signed-out" ? signedOutLinks : []} />
    </>
  );
}

/**
 * The signed-in controls as they look before they work: the organization button with its name and
 * the account button with the initials, at the real menus' size, so the menus replace it in place.
 * The names come from the viewer hint (./viewer-hint.ts) through CSS variables, so a static page
 * draws them in its first paint. `hinted`: shown only while the hint says someone is signed in.
 */
function SignedInStandIn({ hinted = false }: { hinted?: boolean }) {
  const box =
    "inline-flex h-9 items-center gap-2 rounded-md border border-border px-2.5 text-sm text-foreground";
  return (
    <div className={hinted ? "viewer-in contents" : "contents"} aria-hidden>
      <span className={box}>
        <Building2 className="size-4 shrink-0 text-muted-foreground" />
        <span className="viewer-org hidden max-w-36 truncate lg:inline" />
        <ChevronsUpDown className="size-3.5 shrink-0 text-muted-foreground" />
      </span>
      <span className={`${box} px-1.5`}>
        <span className="viewer-initials grid size-6 place-items-center rounded-full bg-accent text-[11px] font-semibold text-accent-foreground" />
      </span>
    </div>
  );
}
