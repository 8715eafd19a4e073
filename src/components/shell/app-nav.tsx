"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/utils";

export type AppNavSection = { label: string; links: { href: string; label: string }[] };

function isActive(pathname: string, href: string) {
  // "/admin" and "/dashboard" are active on their own page only (their sub-pages have links of their
  // own); the others also on their sub-paths (profile tabs).
  if (href === "/admin" || href === "/dashboard") return pathname === href;
  return pathname === href || pathname.startsWith(`${href}/`);
}

// The pages behind these links are dynamic (each runs its guard): no prefetching on every render.

/** The app shell's navigation: a sidebar from 1024 px, rows of tabs below. */
export function AppNav({ sections, variant }: { sections: AppNavSection[]; variant: "sidebar" | "tabs" }) {
  const pathname = usePathname();
  if (variant === "tabs") {
    // Below 1024 px: one row of tabs per section that wraps rather than scrolls, so no tab is
    // ever cut off at the edge of a phone.
    return (
      <nav aria-label="App" className="grid gap-1">
        {sections.map((section) => (
          <div key={section.label} className="-mx-1 flex flex-wrap gap-1 px-1">
            {section.links.map((link) => (
              <Link
                key={link.href}
                href={link.href}
                prefetch={false}
                aria-current={isActive(pathname, link.href) ? "page" : undefined}
                className="rounded-md px-3 py-2 text-sm whitespace-nowrap text-muted-foreground hover:bg-muted hover:text-foreground aria-[current=page]:bg-muted aria-[current=page]:font-medium aria-[current=page]:text-foreground"
              >
                {link.label}
              </Link>
            ))}
          </div>
        ))}
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
