import { HeaderAuth } from "./header-auth";
import { Logo } from "./logo";
import { MainNav } from "./nav";
import { ThemeSwitcher } from "./theme-switcher";

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Logo />
        <MainNav />
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <ThemeSwitcher />
          <HeaderAuth />
        </div>
      </div>
    </header>
  );
}
