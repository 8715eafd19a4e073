"use client";

import dynamic from "next/dynamic";

// Loaded after the page is interactive, so the beacon (and Vercel's component) stay out of the first load.
const PageViews = dynamic(() => import("./page-views"), { ssr: false });

export function Analytics() {
  return <PageViews />;
}
