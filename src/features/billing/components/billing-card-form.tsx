"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useActionForm } from "@/components/hooks/use-action-form";
import { FormActions } from "@/components/ui/submit-button";
import { updateCardAction } from "../card-actions";
import { newIdempotencyKey, PAYMENT_PENDING } from "../idempotency";
import { CardFields } from "./card-fields";

/**
 * Replaces the card on file (owners and admins). The card goes to the provider and is saved without
 * a charge, unless a renewal is past due: then it is paid at once. A refused card keeps what was
 * typed; the server's answers never repeat the number.
 */
export function BillingCardForm({ pastDue }: { pastDue: boolean }) {
  const router = useRouter();
  const key = useRef(newIdempotencyKey());
  const [saved, setSaved] = useState("");
  const form = useActionForm(
    { cardNumber: "", expiry: "", cvc: "" },
    async (values) => {
      setSaved("");
      const result = await updateCardAction({ ...values, idempotencyKey: key.current });
      // A definite answer ends this attempt; an unknown one keeps the key so its retry saves once.
      if (result.ok || result.code !== PAYMENT_PENDING) key.current = newIdempotencyKey();
      router.refresh();
      return result;
    },
    {
      idPrefix: "billing-card",
      resetOnSuccess: true,
      success: (r) => (r.data.paid ? "Paid: your plan is active again." : "Card saved."),
      onSuccess: (r) =>
        setSaved(
          r.data.paid
            ? `Card saved (${r.data.brand} ending in ${r.data.last4}). Paid: your plan is active again.`
            : `Card saved: ${r.data.brand} ending in ${r.data.last4}.`,
        ),
    },
  );
  return (
    <form className="grid max-w-xl gap-2" onSubmit={form.submit} noValidate data-testid="billing-card-form">
      {pastDue ? (
        <p className="text-sm text-destructive">
          The last renewal was declined: the new card is charged for it at once.
        </p>
      ) : null}
      <CardFields
        idPrefix="billing-card"
        values={form.values}
        setValues={form.setValues}
        errors={form.fieldErrors}
      />
      <FormActions form={form} errorId="billing-card-error" pendingLabel="Saving…">
        {pastDue ? "Save card and pay now" : "Save card"}
      </FormActions>
      {saved ? (
        <p
          role="status"
          className="text-sm text-emerald-700 dark:text-emerald-400"
          data-testid="billing-card-saved"
        >
          {saved}
        </p>
      ) : null}
    </form>
  );
}
