"use client";

import { notify } from "./notify";

/**
 * Copies `text` to the clipboard and says so in a toast ("Link copied."); when the browser refuses,
 * the toast says to copy by hand. `what` names the thing in lower case ("link", "key").
 */
export async function copyWithToast(text: string, what: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
    notify.success(`${what.charAt(0).toUpperCase()}${what.slice(1)} copied.`);
    return true;
  } catch {
    notify.error(`Could not copy. Select the ${what} and copy it yourself.`);
    return false;
  }
}
