"use client";

import { Analytics } from "@vercel/analytics/next";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { PAGE_VIEW_PATH } from "@/core/monitoring/client-config";
import { loadClientConfig } from "./boot";

type Navigator = globalThis.Navigator & { globalPrivacyControl?: boolean };

/** Do-Not-Track or Global Privacy Control: no page view is sent. */
function optedOut(): boolean {
  const nav = navigator as Navigator;
  return nav.doNotTrack === "1" || nav.globalPrivacyControl === true;
}

function sendView(path: string) {
  const body = JSON.stringify({ path });
  const blob = new Blob([body], { type: "application/json" });
  if (navigator.sendBeacon?.(PAGE_VIEW_PATH, blob)) return;
  fetch(PAGE_VIEW_PATH, {
    method: "POST",
    body,
    keepalive: true,
    credentials: "omit",
    headers: { "content-type": "application/json" },
  }).catch(() => {});
}

/**
 * Page views. On Vercel, Vercel Web Analytics; elsewhere one anonymous beacon per route the visitor
 * lands on (first load and every client-side navigation): the path only, no cookie, no identifier.
 */
export default function PageViews() {
  const pathname = usePathname();
  const [mode, setMode] = useState<"vercel" | "local" | undefined>();

  useEffect(() => {
    let live = true;
    loadClientConfig().then((config) => {
      if (live) setMode(config?.analytics);
    });
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (mode === "local" && pathname && !optedOut()) sendView(pathname);
  }, [mode, pathname]);

  return mode === "vercel" ? <Analytics /> : null;
}
