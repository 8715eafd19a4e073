"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/utils";

/** The admin area's sections. The mail outbox (issue 10) adds its entry here. */
export const ADMIN_SECTIONS = [
  { href: "/admin", label: "Overview" },
  { href: "/admin/users", label: "Users" },
  { href: "/admin/currency-test", label: "Currency & FX" },
] as const;

/** Sub-navigation for the admin area; the app shell renders it above admin pages. */
export function AdminNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Administration" className="border-b border-border">
      <ul className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-4 sm:px-6">
        {ADMIN_SECTIONS.map((s) => {
          const current = pathname === s.href;
          return (
            <li key={s.href}>
              <Link
                href={s.href}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "inline-flex h-11 items-center whitespace-nowrap border-b-2 px-3 text-sm font-medium",
                  current
                    ? "border-primary text-foreground"
                    : "border-transparent text-muted-foreground hover:text-foreground",
                )}
              >
                {s.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function AdminPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <>
      <AdminNav />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-8 sm:px-6 sm:py-10">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
        {children}
      </div>
    </>
  );
}
