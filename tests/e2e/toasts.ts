import type { Page } from "@playwright/test";

declare global {
  interface Window {
    toastsSeen: { type: string; text: string }[];
  }
}

/**
 * Records every toast the page shows from now on (its type and text), also ones already gone by
 * the time a test looks: `expect(...).toHaveCount(0)` on toasts would wait for a toast to time out
 * and pass. Call before `goto`; read with `toastsSeen(page)`.
 */
export async function recordToasts(page: Page) {
  await page.addInitScript(() => {
    window.toastsSeen = [];
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll("[data-sonner-toast]")) {
        if (seen.has(toast)) continue;
        seen.add(toast);
        window.toastsSeen.push({
          type: toast.getAttribute("data-type") ?? "",
          text: toast.textContent ?? "",
        });
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

export function toastsSeen(page: Page) {
  return page.evaluate(() => window.toastsSeen);
}
