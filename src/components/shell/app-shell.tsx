import type * as React from "react";
import { navLinks } from "@/core/routes";
import { AppNav, type AppNavSection } from "./app-nav";
import { OrgSwitcher } from "./org-switcher";
import type { MeSummary } from "./viewer-store";

/**
 * The frame of the signed-in pages (the (app) and (admin) route groups): a sidebar from 1024 px;
 * below, a row of tabs and, on phones (where the header has no room for it), the organization
 * switcher. The links come from the route table. Pages still call their own guards: the shell
 * only decides what to show, never who may see a page.
 */
export function AppShell({ me, children }: { me: MeSummary | null; children: React.ReactNode }) {
  if (!me) return <>{children}</>;
  const sections: AppNavSection[] = [{ label: "Workspace", links: navLinks("app") }];
  if (me.user.isAdmin) sections.push({ label: "Administration", links: navLinks("admin") });
  return (
    <div className="mx-auto flex w-full max-w-6xl gap-8 px-4 sm:px-6">
      <aside className="hidden w-48 shrink-0 py-10 lg:block">
        <div className="sticky top-24">
          <AppNav sections={sections} variant="sidebar" />
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <div className="grid gap-2 border-b border-border py-3 lg:hidden">
          {me.organizations.length > 0 ? (
            <div className="sm:hidden">
              <OrgSwitcher
                me={me}
                className="w-full justify-start"
                nameClassName="flex-1 truncate text-left"
              />
            </div>
          ) : null}
          <AppNav sections={sections} variant="tabs" />
        </div>
        {children}
      </div>
    </div>
  );
}
