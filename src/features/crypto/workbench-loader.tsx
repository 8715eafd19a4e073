"use client";

import dynamic from "next/dynamic";

// The workbench and its crypto libraries are their own chunk, fetched only when the Crypto mode
// is opened; the Decimal and Currency modes never load it.
export const CryptoWorkbenchLoader = dynamic(() => import("./workbench"), {
  ssr: false,
  loading: () => (
    <p className="py-12 text-center text-sm text-muted-foreground" role="status">
      Loading the crypto workbench…
    </p>
  ),
});
