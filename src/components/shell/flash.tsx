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
    // notify mounts the toaster first when it is not yet (components/hooks/notify.ts).
    if (message) notify.success(message);
  }, []);
  return null;
}
