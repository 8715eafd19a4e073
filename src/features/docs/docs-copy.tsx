"use client";

import { useEffect } from "react";

/**
 * The docs' Copy buttons (plain markup from markdown.ts, one per code block): one click listener on
 * the document copies the block beside the button and says "Copied" on it for two seconds.
 */
export function DocsCopy() {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const button = (event.target as Element | null)?.closest?.("button[data-copy]");
      const code = button?.parentElement?.querySelector("pre");
      if (!(button instanceof HTMLButtonElement) || !code) return;
      void navigator.clipboard?.writeText(code.textContent ?? "").then(
        () => say(button, "Copied"),
        () => say(button, "Select and copy"),
      );
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
  return null;
}

function say(button: HTMLButtonElement, text: string) {
  button.textContent = text;
  setTimeout(() => {
    button.textContent = "Copy";
  }, 2000);
}
