"use server";

import { z } from "zod";
import { type ActionResult, action } from "@/server/action";
import { getEnv } from "@/server/env";
import { getPaymentProvider } from "@/server/payments";
import { currentSigningKey } from "./server/receipt-keys";
import { MAX_REFUND_REASON, refundInvoice } from "./server/refunds";

const refundSchema = z.object({
  invoiceNumber: z.string().trim().min(1, "Choose an invoice.").max(40),
  amount: z.string().trim().min(1, "Enter the amount to refund.").max(40, "That amount is too long."),
  reason: z.string().trim().min(1, "Give a reason for the refund.").max(MAX_REFUND_REASON),
});

/** A platform admin refunds (part of) an invoice; the answer names the credit note it issued. */
export const refundInvoiceAction = action(
  { kind: "admin" },
  refundSchema,
  async ({ db, viewer, input }): Promise<ActionResult<{ creditNoteNumber: string | null }>> => {
    const result = await refundInvoice(
      db,
      await getPaymentProvider(),
      { ...input, userId: viewer.user.id },
      { key: await currentSigningKey(db), issuer: getEnv().APP_URL ?? "Abacus" },
    );
    if (!result.ok) return { ok: false, error: result.error, fieldErrors: result.fieldErrors };
    const outcome = result.data;
    if (outcome.status === "issued") {
      return {
        ok: true,
        data: { creditNoteNumber: outcome.creditNoteNumber },
        message: `Refunded ${outcome.total} ${outcome.currency}: credit note ${outcome.creditNoteNumber}.`,
      };
    }
    if (outcome.status === "failed")
      return { ok: false, error: `The provider refused the refund: ${outcome.reason}` };
    return {
      ok: false,
      error: `The provider has not confirmed the refund yet (${outcome.reason}). Its amount stays reserved; nothing else was refunded.`,
    };
  },
);
