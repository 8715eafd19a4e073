import type * as React from "react";
import { AppShell } from "@/components/shell/app-shell";
import { currentMeSummary } from "@/features/account/server";

/**
 * Signed-in pages: the app shell around them. Each page still calls its guard (a layout is not a
 * check: it does not run again on client navigation between its pages).
 */
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  // Read once per request: the header's account area (the @account slot) uses the same summary.
  return <AppShell me={await currentMeSummary()}>{children}</AppShell>;
}
