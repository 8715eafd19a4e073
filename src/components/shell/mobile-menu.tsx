"use client";

import { Menu, X } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useRef } from "react";
import { navLinks } from "./nav-links";
import { OrgSwitchList } from "./org-switch-list";
import { signOutAndLeave } from "./sign-out";
import type { MeSummary } from "./viewer-store";

/**
 * The navigation below 768 px, in a native modal <dialog>: the browser traps focus in it, makes
 * the page behind inert and closes it on Escape, with no dialog library on every page.
 */
export function MobileMenu({
  authLinks,
  me,
}: {
  authLinks: { href: string; label: string }[];
  /** Signed in: the organization switcher and Sign out are added. */
  me?: MeSummary;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const pathname = usePathname();
  const close = () => dialog.current?.close();
  return (
    <>
      <button
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        onClick={() => dialog.current?.showModal()}
        className="grid size-10 place-items-center rounded-md hover:bg-muted md:hidden"
      >
        <Menu className="size-5" aria-hidden />
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the click closes on the backdrop only; the native dialog closes on Escape for keyboards */}
      <dialog
        ref={dialog}
        aria-labelledby="mobile-menu-title"
        onClick={(event) => {
          if (event.target === dialog.current) close();
        }}
        className="m-0 max-h-dvh w-full max-w-none overflow-y-auto border-b border-border bg-background p-4 text-foreground shadow-xl backdrop:bg-black/40"
      >
        <div className="flex items-center justify-between">
          <h2 id="mobile-menu-title" className="font-semibold">
            Menu
          </h2>
          <button
            type="button"
            aria-label="Close menu"
            onClick={close}
            className="grid size-10 place-items-center rounded-md hover:bg-muted"
          >
            <X className="size-5" aria-hidden />
          </button>
        </div>
        <nav aria-label="Mobile" className="mt-2 grid gap-1">
          {[...navLinks, ...authLinks].map((link) => (
            <Link
              key={link.href}
              href={link.href}
              onClick={close}
              aria-current={pathname === link.href ? "page" : undefined}
              className="rounded-md px-3 py-3 text-base hover:bg-muted aria-[current=page]:bg-muted aria-[current=page]:font-medium"
            >
              {link.label}
            </Link>
          ))}
          {me ? <OrgSwitchList me={me} onDone={close} /> : null}
          {me ? (
            <button
              type="button"
              onClick={() => {
                close();
                void signOutAndLeave();
              }}
              className="rounded-md border-t border-border px-3 py-3 text-left text-base hover:bg-muted"
            >
              Sign out
            </button>
          ) : null}
        </nav>
      </dialog>
    </>
  );
}
