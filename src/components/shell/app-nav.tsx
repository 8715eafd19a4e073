"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { cn } from "@/lib/utils";

export type AppNavSection = { label: string; links: { href: string; label: string }[] };

function isActive(pathname: string, href: string) {
  // "/admin" is active on its own page only; the others also on their sub-paths (profile tabs).
  if (href === "/admin") return pathname === href;
  return pathname === href || pathname.startsWith(`${href}/`);
}

// The pages behind these links are dynamic (each runs its guard): no prefetching on every render.

/** The app shell's navigation: a sidebar from 1024 px, a row of tabs that scrolls below. */
export function AppNav({ sections, variant }: { sections: AppNavSection[]; variant: "sidebar" | "tabs" }) {
  const pathname = usePathname();
  const activeTab = useRef<HTMLAnchorElement>(null);
  // On phones the row of tabs scrolls: bring the current one into view.
  useEffect(() => {
    if (pathname) activeTab.current?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [pathname]);
  if (variant === "tabs") {
    return (
      <nav aria-label="App" className="-mx-1 flex gap-1 overflow-x-auto px-1 pb-1">
        {sections.flatMap((section) =>
          section.links.map((link) => (
            <Link
              key={link.href}
              href={link.href}
              prefetch={false}
              ref={isActive(pathname, link.href) ? activeTab : undefined}
              aria-current={isActive(pathname, link.href) ? "page" : undefined}
              className="shrink-0 rounded-md px-3 py-2 text-sm whitespace-nowrap text-muted-foreground hover:bg-muted hover:text-foreground aria-[current=page]:bg-muted aria-[current=page]:font-medium aria-[current=page]:text-foreground"
            >
              {link.label}
            </Link>
          )),
        )}
      </nav>
    );
  }
  return (
    <nav aria-label="App" className="grid gap-6">
      {sections.map((section) => (
        <div key={section.label} className="grid gap-1">
          <p className="px-3 text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {section.label}
          </p>
          {section.links.map((link) => (
            <Link
              key={link.href}
              href={link.href}
              prefetch={false}
              aria-current={isActive(pathname, link.href) ? "page" : undefined}
              className={cn(
                "rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-muted hover:text-foreground",
                "aria-[current=page]:bg-muted aria-[current=page]:font-medium aria-[current=page]:text-foreground",
              )}
            >
              {link.label}
            </Link>
          ))}
        </div>
      ))}
    </nav>
  );
}
