"use client";

import dynamic from "next/dynamic";

// Each mode is its own chunk: the page loads the code of the mode it shows (server-rendered, then
// hydrated), not the other's, and the Crypto mode loads neither. No `loading` placeholder: with one,
// next/dynamic wraps the mode in a Suspense boundary that the server streams after the page, and
// React reveals such a part at least 300 ms after the first paint (the calculator came in late).
export const DecimalMode = dynamic(() => import("./decimal-mode").then((m) => m.DecimalMode));
export const CurrencyMode = dynamic(() => import("./currency-mode").then((m) => m.CurrencyMode));
/** The notebook without an account: the sheet lives in the URL fragment. */
export const FragmentNotebook = dynamic(() =>
  import("./notebook/fragment-notebook").then((m) => m.FragmentNotebook),
);
/** The notebook of a member: sheets saved to the active organization. */
export const SavedNotebook = dynamic(() => import("./notebook/saved-notebook").then((m) => m.SavedNotebook));
