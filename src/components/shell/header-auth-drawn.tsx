"use client";

import { AccountArea } from "./header-auth";
import { SignedInMenus } from "./signed-in-menus";
import { type MeSummary, useViewer } from "./viewer-store";

/**
 * The header's account area on pages that know the viewer on the server (the app pages, through the
 * root layout's @account slot): drawn with the page, menus included, and the viewer store starts
 * from `initial` instead of asking /api/me. Its own module, so the Radix menus it imports statically
 * stay out of the static pages' first load.
 */
export function HeaderAuthDrawn({ initial }: { initial: MeSummary | null }) {
  return <AccountArea viewer={useViewer(initial)} Menus={SignedInMenus} />;
}
