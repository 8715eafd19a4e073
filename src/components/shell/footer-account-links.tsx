"use client";

import Link from "next/link";
import { footerLinkClass as linkClass } from "./nav-links";
import { useViewer } from "./viewer-store";

// The two account links, by state: visitors get Sign in / Get started, signed-in users the app.
const SLOTS = [
  { signedOut: { href: "/sign-in", label: "Sign in" }, signedIn: { href: "/dashboard", label: "Dashboard" } },
  {
    signedOut: { href: "/sign-up", label: "Get started" },
    signedIn: { href: "/user-profile", label: "Profile" },
  },
] as const;

/**
 * The footer's account links, by who is looking. Each sits in a cell as wide as the longer of its
 * two labels (both are laid out, one invisibly), so learning who is signed in moves nothing: not
 * the link's column, nor the columns beside it.
 */
export function FooterAccountLinks() {
  const viewer = useViewer();
  return (
    <>
      {SLOTS.map((slot) => {
        const link =
          viewer.status === "signed-in"
            ? slot.signedIn
            : viewer.status === "signed-out"
              ? slot.signedOut
              : null;
        return (
          <span key={slot.signedOut.href} className="grid [&>*]:[grid-area:1/1]">
            {link ? (
              <Link href={link.href} className={linkClass}>
                {link.label}
              </Link>
            ) : null}
            {[slot.signedOut.label, slot.signedIn.label].map((label) => (
              <span key={label} aria-hidden className="invisible py-0.5">
                {label}
              </span>
            ))}
          </span>
        );
      })}
    </>
  );
}
