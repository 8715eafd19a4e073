import type * as React from "react";
import { AppShell } from "@/components/shell/app-shell";
import { loadMeSummary } from "@/features/account/queries";
import { getViewer } from "@/server/authz";
import { getDb } from "@/server/db/client";

/**
 * Signed-in pages: the app shell around them. Each page still calls its guard (a layout is not a
 * check: it does not run again on client navigation between its pages).
 */
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const viewer = await getViewer();
  const me = viewer ? await loadMeSummary(getDb(), viewer) : null;
  return <AppShell me={me}>{children}</AppShell>;
}
