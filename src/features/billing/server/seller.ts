import "server-only";
import type { ReceiptSeller } from "@/core/receipts/receipt";
import { getEnv, publicOrigin } from "@/server/env";

/**
 * The seller a receipt names, from SELLER_NAME, SELLER_ADDRESS (lines separated by `\n` or ";"),
 * SELLER_CONTACT and SELLER_VAT_ID. Unset, it is "Abacus" at this instance's address, reachable
 * through its contact page.
 */
export function sellerDetails(): ReceiptSeller {
  const env = getEnv();
  const address = (env.SELLER_ADDRESS ?? "")
    .split(/\\n|\n|;/)
    .map((line) => line.trim())
    .filter(Boolean);
  return {
    name: env.SELLER_NAME,
    address: address.length > 0 ? address : [publicOrigin()],
    contact: env.SELLER_CONTACT ?? `${publicOrigin()}/contact`,
    vatId: env.SELLER_VAT_ID ?? null,
  };
}
