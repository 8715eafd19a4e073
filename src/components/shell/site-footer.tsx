import Link from "next/link";
import { FooterAccountLinks } from "./footer-account-links";
import { Logo } from "./logo";
import { footerLinkClass, navLinks } from "./nav-links";

export function SiteFooter() {
  return (
    <footer className="border-t border-border">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div className="grid gap-2">
          <Logo />
          <p className="max-w-xs text-sm text-muted-foreground">Exact money math for small teams.</p>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-x-10 gap-y-2 text-sm sm:grid-cols-3">
          {navLinks.map((link) => (
            <Link key={link.href} href={link.href} className={footerLinkClass}>
              {link.label}
            </Link>
          ))}
          <FooterAccountLinks />
        </nav>
      </div>
    </footer>
  );
}
