import type * as React from "react";

/**
 * Public pages (home, calculator, pricing, docs, contact): static, no session read on the server.
 * The site header and footer come from the root layout; the header asks /api/me after load.
 */
export default function MarketingLayout({ children }: { children: React.ReactNode }) {
  return children;
}
