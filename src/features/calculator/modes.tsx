"use client";

import dynamic from "next/dynamic";

// Each mode is its own chunk: the page loads the code of the mode it shows (server-rendered, then
// hydrated), not the other's, and the Crypto mode loads neither.
const reserve = () => <div className="min-h-[32rem]" aria-hidden />;

export const DecimalMode = dynamic(() => import("./decimal-mode").then((m) => m.DecimalMode), {
  loading: reserve,
});
export const CurrencyMode = dynamic(() => import("./currency-mode").then((m) => m.CurrencyMode), {
  loading: reserve,
});
