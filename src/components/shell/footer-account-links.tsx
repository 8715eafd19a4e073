"use client";

import Link from "next/link";
import { footerLinkClass as linkClass } from "./nav-links";
import { useViewer } from "./viewer-store";

/**
 * The footer's account links, by who is looking: Sign in / Get started for visitors, the app for
 * signed-in users. Two links in every state (invisible while loading) so the answer moves nothing.
 */
export function FooterAccountLinks() {
  const viewer = useViewer();
  if (viewer.status === "signed-in") {
    return (
      <>
        <Link href="/dashboard" className={linkClass}>
          Dashboard
        </Link>
        <Link href="/user-profile" className={linkClass}>
          Profile
        </Link>
      </>
    );
  }
  if (viewer.status === "loading") {
    return (
      <>
        <span aria-hidden className="invisible py-0.5">
          Sign in
        </span>
        <span aria-hidden className="invisible py-0.5">
          Get started
        </span>
      </>
    );
  }
  return (
    <>
      <Link href="/sign-in" className={linkClass}>
        Sign in
      </Link>
      <Link href="/sign-up" className={linkClass}>
        Get started
      </Link>
    </>
  );
}
