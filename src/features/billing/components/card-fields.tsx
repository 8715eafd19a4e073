"use client";

import { CreditCard, Lock } from "lucide-react";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { detectBrand, formatCardNumber } from "@/core/billing/card";

type CardValues = { cardNumber: string; expiry: string; cvc: string };

/**
 * The card number, expiry and security code of a card form, as the checkout shows them: the number
 * grouped as typed with its brand, the values controlled by the form (kept when it is refused).
 */
export function CardFields<V extends CardValues>({
  idPrefix,
  values,
  setValues,
  errors,
  disabled,
}: {
  idPrefix: string;
  values: V;
  setValues: (update: (current: V) => V) => void;
  errors: Record<string, string>;
  disabled?: boolean;
}) {
  const brand = detectBrand(values.cardNumber);
  const amex = brand === "American Express";
  const set = (name: keyof CardValues, value: string) => setValues((v) => ({ ...v, [name]: value }));
  return (
    <>
      <Field
        id={`${idPrefix}-cardNumber`}
        label="Card number"
        hint={brand ? `${brand}` : undefined}
        error={errors.cardNumber}
      >
        {(props) => (
          <div className="relative">
            <Input
              {...props}
              name="cardNumber"
              value={values.cardNumber}
              onChange={(e) => set("cardNumber", formatCardNumber(e.target.value))}
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
              className="tabular pr-10 font-mono"
              disabled={disabled}
            />
            <CreditCard
              className="pointer-events-none absolute top-3 right-3 size-4 text-muted-foreground"
              aria-hidden
            />
          </div>
        )}
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id={`${idPrefix}-expiry`} label="Expiry (MM/YY)" error={errors.expiry}>
          {(props) => (
            <Input
              {...props}
              name="expiry"
              value={values.expiry}
              onChange={(e) => set("expiry", e.target.value)}
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              className="tabular"
              disabled={disabled}
            />
          )}
        </Field>
        <Field id={`${idPrefix}-cvc`} label="Security code" error={errors.cvc}>
          {(props) => (
            <Input
              {...props}
              name="cvc"
              value={values.cvc}
              onChange={(e) => set("cvc", e.target.value)}
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder={amex ? "4 digits" : "3 digits"}
              className="tabular"
              disabled={disabled}
            />
          )}
        </Field>
      </div>
      <p className="flex items-center gap-2 text-xs text-muted-foreground">
        <Lock className="size-3.5" aria-hidden />
        Only the card's brand and last four digits are kept.
      </p>
    </>
  );
}
