"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { changePlanAction } from "../actions";
import { newIdempotencyKey, PAYMENT_PENDING } from "../idempotency";

/** One upgrade the organization can make now, priced on the server (formatted amounts). */
export type UpgradeChoice = {
  plan: "pro" | "team";
  interval: "monthly" | "yearly";
  label: string;
} & (
  | {
      error?: undefined;
      charge: string;
      /** The subscription's coupon on this charge ("−€1.00" and its code), when it has one. */
      discount: { amount: string; code: string } | null;
      credit: string;
      tax: string;
      taxRate: string;
      total: string;
      periodEnd: string;
      restarts: boolean;
      asOf: string;
    }
  | { error: string }
);

/**
 * Upgrades with their proration shown before anything is charged: pick one, read what it costs now
 * (charge for the new plan, the subscription's coupon on it, credit for the unused old plan, tax),
 * confirm. The form keeps one
 * idempotency key until it succeeds, so a double click or a retry charges once.
 */
export function BillingUpgrade({ choices }: { choices: UpgradeChoice[] }) {
  const router = useRouter();
  const id = useId();
  const [selected, setSelected] = useState<string>("");
  const [key, setKey] = useState(newIdempotencyKey);
  const [error, setError] = useState("");
  const [pending, startTransition] = useTransition();
  const choice = choices.find((c) => `${c.plan}-${c.interval}` === selected);

  function confirm(event: React.FormEvent) {
    event.preventDefault();
    if (!choice || choice.error !== undefined) return;
    startTransition(async () => {
      const result = await callAction(() =>
        changePlanAction({ plan: choice.plan, interval: choice.interval, idempotencyKey: key }),
      );
      if (!result) return;
      if (!result.ok) {
        setError(result.error);
        // A definite refusal or decline: the next attempt is a new request. A pending one keeps its key.
        if (result.code !== PAYMENT_PENDING) setKey(newIdempotencyKey());
        return;
      }
      setError("");
      setSelected("");
      setKey(newIdempotencyKey());
      notify.success(result.message ?? "Upgraded.");
      router.refresh();
    });
  }

  return (
    <form className="grid gap-4" onSubmit={confirm} aria-labelledby={`${id}-title`}>
      <fieldset className="grid gap-2">
        <legend id={`${id}-title`} className="mb-2 text-sm font-semibold">
          Upgrade now
        </legend>
        {choices.map((c) => {
          const value = `${c.plan}-${c.interval}`;
          return (
            <label
              key={value}
              className="flex cursor-pointer items-center justify-between gap-3 rounded-md border border-border p-3 text-sm has-[:checked]:border-primary"
            >
              <span className="flex items-center gap-2">
                <input
                  type="radio"
                  name="upgrade"
                  value={value}
                  checked={selected === value}
                  onChange={() => {
                    setSelected(value);
                    setError("");
                  }}
                />
                {c.label}
              </span>
              <span className="tabular text-muted-foreground">
                {c.error !== undefined ? "Not available" : `${c.total} now`}
              </span>
            </label>
          );
        })}
      </fieldset>
      {choice ? (
        choice.error !== undefined ? (
          <p className="text-sm text-destructive">{choice.error}</p>
        ) : (
          <div
            className="grid gap-3 rounded-md border border-border bg-muted/40 p-4"
            data-testid="proration-preview"
          >
            <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
              <dt>
                {choice.label}, {choice.restarts ? "a new period" : "rest of this period"}
              </dt>
              <dd className="tabular text-right">{choice.charge}</dd>
              {choice.discount ? (
                <>
                  <dt className="text-emerald-700 dark:text-emerald-400">
                    Discount (<span className="font-mono whitespace-nowrap">{choice.discount.code}</span>)
                  </dt>
                  <dd
                    className="tabular text-right text-emerald-700 dark:text-emerald-400"
                    data-testid="proration-discount"
                  >
                    {choice.discount.amount}
                  </dd>
                </>
              ) : null}
              <dt>Credit for the unused time of the current plan</dt>
              <dd className="tabular text-right">{choice.credit}</dd>
              <dt>Tax ({choice.taxRate} %)</dt>
              <dd className="tabular text-right">{choice.tax}</dd>
              <dt className="font-semibold">Charged now to the card on file</dt>
              <dd className="tabular text-right font-semibold" data-testid="proration-total">
                {choice.total}
              </dd>
            </dl>
            <p className="text-xs text-muted-foreground">
              {choice.restarts
                ? `The billing period restarts today and then runs to ${choice.periodEnd}.`
                : `The period still ends on ${choice.periodEnd}.`}{" "}
              Priced as of {choice.asOf}; confirming prices it again to the second, so the amount can differ
              by a cent.
            </p>
          </div>
        )
      ) : null}
      <FormError id={`${id}-error`} message={error} />
      <div>
        <SubmitButton
          pending={pending}
          disabled={!choice || choice.error !== undefined}
          pendingLabel="Charging…"
        >
          {choice && choice.error === undefined ? `Upgrade and pay ${choice.total}` : "Upgrade"}
        </SubmitButton>
      </div>
    </form>
  );
}
