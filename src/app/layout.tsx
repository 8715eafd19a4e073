import type { Metadata, Viewport } from "next";
import type * as React from "react";
import { ImpersonationBanner } from "@/components/shell/impersonation-banner";
import { Providers } from "@/components/shell/providers";
import { SiteFooter } from "@/components/shell/site-footer";
import { SiteHeader } from "@/components/shell/site-header";
import { viewerHintScript } from "@/components/shell/viewer-hint";
import { earlyClickScript } from "@/components/ui/early-click";
import { stopImpersonatingAction } from "@/features/admin";
import { Analytics } from "@/features/monitoring/analytics";
import { siteOrigin } from "@/server/site-origin";
import { inter } from "./fonts";
import "./globals.css";

export const metadata: Metadata = {
  metadataBase: siteOrigin(),
  title: { default: "Abacus — exact money math for small teams", template: "%s · Abacus" },
  description:
    "Arbitrary-precision decimals, every ISO 4217 currency, signed receipts anyone can verify, and a private crypto workbench.",
  // Only what every page shares: a page's own title and description become its og:title and
  // og:description, and the nearest opengraph-image file its picture (setting title or images here
  // would be copied to every page instead).
  openGraph: { siteName: "Abacus", type: "website", locale: "en_US" },
  twitter: { card: "summary_large_image" },
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#fcfcfd" },
    { media: "(prefers-color-scheme: dark)", color: "#15171c" },
  ],
};

export default function RootLayout({
  children,
  account,
}: {
  children: React.ReactNode;
  /** The header's account area (`@account`): server-drawn on the app pages, live elsewhere. */
  account: React.ReactNode;
}) {
  return (
    // next-themes sets the class before first paint; the attribute differs from the server's.
    <html lang="en" className={inter.variable} suppressHydrationWarning>
      <body className="flex min-h-dvh flex-col font-sans">
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: constants of ours (ui/early-click.ts, shell/viewer-hint.ts), no input */}
        <script dangerouslySetInnerHTML={{ __html: `${earlyClickScript};${viewerHintScript}` }} />
        <Providers>
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-background focus:px-4 focus:py-2 focus:shadow"
          >
            Skip to content
          </a>
          {/* The site's chrome is not printed: a printed page (a receipt) is the document alone. */}
          <div className="contents print:hidden">
            <ImpersonationBanner stop={stopImpersonatingAction} />
            <SiteHeader account={account} />
          </div>
          <main id="main" className="flex-1">
            {children}
          </main>
          <div className="contents print:hidden">
            <SiteFooter />
          </div>
        </Providers>
        <Analytics />
      </body>
    </html>
  );
}
