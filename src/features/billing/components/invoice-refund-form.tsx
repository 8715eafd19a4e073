"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { Input } from "@/components/ui/input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { refundInvoiceAction } from "../refund-actions";

/**
 * A platform admin's refund of one invoice: an exact amount in the invoice's currency (at most what
 * is left) and a reason. Errors show beside their field; the form keeps what was typed.
 */
export function InvoiceRefundForm({
  invoiceNumber,
  currency,
  left,
}: {
  invoiceNumber: string;
  currency: string;
  left: string;
}) {
  const router = useRouter();
  const id = useId();
  const [amount, setAmount] = useState(left);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<{ form?: string; amount?: string; reason?: string }>({});
  const [pending, startTransition] = useTransition();

  function submit(event: React.FormEvent) {
    event.preventDefault();
    startTransition(async () => {
      const result = await callAction(() => refundInvoiceAction({ invoiceNumber, amount, reason }));
      if (!result) return;
      if (!result.ok) {
        const fields = (result.fieldErrors ?? {}) as Record<string, string>;
        setErrors({ form: result.error, amount: fields.amount, reason: fields.reason });
        return;
      }
      setErrors({});
      notify.success(result.message ?? "Refunded.");
      router.refresh();
    });
  }

  return (
    <form
      onSubmit={submit}
      className="grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-start"
      aria-label={`Refund ${invoiceNumber}`}
    >
      <div className="grid gap-1">
        <label htmlFor={`${id}-amount`} className="text-sm font-medium">
          Amount ({currency})
        </label>
        <Input
          id={`${id}-amount`}
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          aria-invalid={Boolean(errors.amount) || undefined}
          aria-describedby={errors.amount ? `${id}-amount-error` : undefined}
        />
        {errors.amount ? (
          <p id={`${id}-amount-error`} className="text-sm text-destructive">
            {errors.amount}
          </p>
        ) : null}
      </div>
      <div className="grid gap-1">
        <label htmlFor={`${id}-reason`} className="text-sm font-medium">
          Reason
        </label>
        <Input
          id={`${id}-reason`}
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={Boolean(errors.reason) || undefined}
        />
        {errors.reason ? <p className="text-sm text-destructive">{errors.reason}</p> : null}
      </div>
      <div className="grid gap-1 sm:pt-6">
        <SubmitButton pending={pending} pendingLabel="Refunding…" variant="destructive" size="sm">
          Refund
        </SubmitButton>
      </div>
      <div className="sm:col-span-3">
        <FormError id={`${id}-error`} message={errors.form ?? ""} />
      </div>
    </form>
  );
}
