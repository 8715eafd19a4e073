"use client";

import { useEffect } from "react";

/**
 * Keeps the pricing page's interval in the address (`?interval=yearly`), as the currency is, so a
 * shared or reloaded page shows what was chosen. The switch itself is plain radio buttons that CSS
 * follows; this only listens to them. `history.replaceState` updates Next.js's search params too,
 * so the currency picker keeps the interval when it changes the address.
 */
export function IntervalInAddress() {
  useEffect(() => {
    const onChange = (event: Event) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement) || input.name !== "interval") return;
      const url = new URL(window.location.href);
      if (input.value === "monthly") url.searchParams.delete("interval");
      else url.searchParams.set("interval", input.value);
      // Only a real change (a page opened on the interval it shows has nothing to write).
      if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url);
    };
    const fieldset = document.querySelector("[data-interval-switch]");
    fieldset?.addEventListener("change", onChange);
    // A choice made before this script ran (the switch works without it) is taken up now.
    const checked = fieldset?.querySelector<HTMLInputElement>("input[name=interval]:checked");
    if (checked) onChange({ target: checked } as unknown as Event);
    return () => fieldset?.removeEventListener("change", onChange);
  }, []);
  return null;
}
