"use client";

import { useEffect } from "react";
import { notify } from "@/components/hooks/notify";
import { FLASH_COOKIE, type FlashCode, flashMessage } from "@/core/flash";

/** Stores a one-shot message for the next page load (see core/flash.ts). */
export function setFlash(code: FlashCode) {
  // biome-ignore lint/suspicious/noDocumentCookie: a short-lived, non-sensitive code for the next page only
  document.cookie = `${FLASH_COOKIE}=${code}; Path=/; Max-Age=60; SameSite=Lax`;
}

function takeFlash(): string | null {
  const match = document.cookie.split("; ").find((part) => part.startsWith(`${FLASH_COOKIE}=`));
  if (!match) return null;
  // biome-ignore lint/suspicious/noDocumentCookie: clearing the one-shot code once it is read
  document.cookie = `${FLASH_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  return flashMessage(match.slice(FLASH_COOKIE.length + 1));
}

/** Announces, once, the message the previous page left for this one. */
export function FlashToast() {
  useEffect(() => {
    const message = takeFlash();
    if (!message) return;
    // The toaster loads after the page (providers.tsx) and drops toasts sent before it mounts:
    // wait for its region to exist.
    let frame = 0;
    const started = performance.now();
    const tick = () => {
      if (document.querySelector("section[aria-label^='Notifications']")) notify.success(message);
      else if (performance.now() - started < 10_000) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, []);
  return null;
}
