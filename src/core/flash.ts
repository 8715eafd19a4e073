/**
 * One-shot messages that must survive a full page load (signing out, deleting an account): the
 * page that leaves stores a code in a short-lived cookie, the page it lands on announces it once
 * and clears it. Codes, not text, travel in the cookie, so nothing from outside becomes a toast.
 */
export const FLASH_COOKIE = "abacus_flash";

export const FLASH_MESSAGES = {
  "signed-out": "Signed out.",
  "account-deleted": "Your account has been deleted.",
  "org-left": "You left the organization.",
  "org-deleted": "Organization deleted.",
} as const;

export type FlashCode = keyof typeof FLASH_MESSAGES;

export function flashMessage(code: string | undefined): string | null {
  return code && Object.hasOwn(FLASH_MESSAGES, code) ? FLASH_MESSAGES[code as FlashCode] : null;
}
