import "server-only";
import type { Db } from "@/server/db/client";
import { findReceipt, listOrders } from "./server/queries";
import { publishedKeys } from "./server/receipt-keys";
import { getSubscription } from "./server/subscription";

export async function loadBilling(db: Db, organizationId: string) {
  const [subscription, orders] = await Promise.all([
    getSubscription(db, organizationId),
    listOrders(db, organizationId, 20),
  ]);
  return { subscription, orders };
}

export type BillingData = Awaited<ReturnType<typeof loadBilling>>;

export type ReceiptFile = "json" | "sig" | "pem";

/** A receipt of the organization with its payload and the public key that signed it. */
export async function loadReceipt(db: Db, organizationId: string, receiptNumber: string) {
  if (!/^AB-\d{4}-[0-9A-F]{12}$/.test(receiptNumber)) return null;
  const row = await findReceipt(db, organizationId, receiptNumber);
  if (!row) return null;
  const key = (await publishedKeys(db)).find((k) => k.kid === row.kid);
  return { ...row, publicKeyPem: key?.publicKeyPem ?? "", keyRetired: Boolean(key?.retiredAt) };
}
