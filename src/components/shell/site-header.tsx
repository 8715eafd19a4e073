import type * as React from "react";
import { HeaderAuth } from "./header-auth";
import { Logo } from "./logo";
import { MainNav } from "./nav";
import { ThemeSwitcher } from "./theme-switcher";

/**
 * `account` is the account area the route chose (the root layout's `@account` slot): drawn from
 * the session on app pages, asked for after load on static ones.
 */
export function SiteHeader({ account }: { account?: React.ReactNode }) {
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Logo />
        <MainNav />
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <ThemeSwitcher />
          {account ?? <HeaderAuth />}
        </div>
      </div>
    </header>
  );
}
