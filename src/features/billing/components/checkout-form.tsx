"use client";

import { FlaskConical } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { callAction } from "@/components/hooks/call-action";
import { useActionForm } from "@/components/hooks/use-action-form";
import { Button } from "@/components/ui/button";
import { ChoiceInput } from "@/components/ui/choice-input";
import { Combobox } from "@/components/ui/combobox";
import { Field } from "@/components/ui/field";
import { Input, Label } from "@/components/ui/input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { shortRate } from "@/core/money/input";
import { checkoutAction, previewCheckoutAction } from "../actions";
import { newIdempotencyKey, PAYMENT_PENDING } from "../idempotency";
import type { CheckoutPreview, CheckoutQuote } from "../quote";
import { CardFields } from "./card-fields";

/**
 * The checkout form and its live order summary. Amounts for every billing country arrive computed on
 * the server; this only picks one. The idempotency key is fixed for one attempt: a double click or a
 * retry sends the same key (and the server charges once); after a declined payment a new key is made
 * so that a corrected card can be tried, but never after an unknown outcome (see below). A pending
 * order of the same purchase (e.g. after a reload) passes its key in as `initialKey`.
 *
 * "Apply" (or Enter in the code's field) asks the server for the order priced with a promotion code
 * (`previewCheckoutAction`: checked as paying checks it, nothing redeemed); the summary then shows
 * the discount and the button the total. Another plan, interval, currency, country or VAT ID prices
 * it again. The preview is only shown: paying prices the order on the server once more.
 */
export function CheckoutForm({
  quote,
  initialKey,
  defaultName,
  defaultCountry,
  defaultVatId = "",
  testMode = false,
}: {
  quote: CheckoutQuote;
  initialKey: string;
  defaultName: string;
  defaultCountry: string;
  defaultVatId?: string;
  /** The offline test provider takes the payment: nothing is charged. */
  testMode?: boolean;
}) {
  const router = useRouter();
  const key = useRef(initialKey);
  const [inclusive, setInclusive] = useState(false);
  const selectId = useId();
  const form = useActionForm(
    {
      name: defaultName,
      country: defaultCountry,
      vatId: defaultVatId,
      couponCode: "",
      cardNumber: "",
      expiry: "",
      cvc: "",
    },
    async (values) => {
      const result = await checkoutAction({
        ...values,
        plan: quote.plan.id,
        interval: quote.interval,
        currency: quote.currency,
        idempotencyKey: key.current,
      });
      // A declined attempt is final under its key; the next attempt is a new one. A payment whose
      // outcome is unknown (the provider timed out) keeps the key, and so does a request that never
      // came back (it throws): the retry checks on the same order and cannot charge twice.
      if (!result.ok && result.code !== PAYMENT_PENDING) key.current = newIdempotencyKey();
      return result;
    },
    {
      idPrefix: "checkout",
      success: (r) =>
        r.data.alreadyActive
          ? `Your organization already has ${quote.plan.name}: here is its receipt.`
          : `Payment received. ${quote.plan.name} is active.`,
      onSuccess: (r) => {
        router.push(r.data.receiptNumber ? `/receipt?number=${r.data.receiptNumber}` : "/dashboard");
      },
    },
  );
  const preview = usePreview(quote, form.values);
  const country = quote.countries.find((c) => c.code === form.values.country);
  // The preview shown is the one for what the form says now (a code edited since is not applied).
  const shown = preview.current;
  const codeTyped = form.values.couponCode.trim() !== "";
  const codeError = preview.errors.couponCode ?? form.fieldErrors.couponCode;
  const countryOptions = quote.countries.map((c) => ({ value: c.code, label: c.name }));
  const per = quote.interval === "monthly" ? "month" : "year";

  return (
    <form
      noValidate
      onSubmit={form.submit}
      className="grid gap-8 lg:grid-cols-[1fr_22rem]"
      aria-describedby="checkout-form-error"
    >
      <div className="grid content-start gap-6">
        <fieldset className="grid gap-2 rounded-lg border border-border bg-card p-6">
          <legend className="px-1 text-base font-semibold">Billing details</legend>
          <Field id="checkout-name" label="Name on the receipt" error={form.fieldErrors.name}>
            {(props) => <Input {...props} {...form.field("name")} autoComplete="organization" />}
          </Field>
          <div className="grid gap-2 sm:grid-cols-2 sm:gap-4">
            <Field
              id="checkout-country"
              label="Country"
              error={form.fieldErrors.country ?? preview.errors.country}
            >
              {(props) => (
                <Combobox
                  {...props}
                  value={form.values.country}
                  onValueChange={(code) => form.setValues((v) => ({ ...v, country: code }))}
                  options={countryOptions}
                  placeholder="Choose a country…"
                  searchLabel="Search countries"
                  searchPlaceholder="Country name or code…"
                  emptyText="No such country here: tax is set up for these ones only."
                />
              )}
            </Field>
            <Field
              id="checkout-vatId"
              label="VAT ID (optional)"
              hint="An EU VAT ID from another member state than ours: no VAT (reverse charge)."
              error={form.fieldErrors.vatId}
              errorLines={2}
            >
              {(props) => <Input {...props} {...form.field("vatId")} autoComplete="off" spellCheck={false} />}
            </Field>
          </div>
          <Field
            id="checkout-couponCode"
            label="Promotion code (optional)"
            hint={
              shown
                ? `${shown.code} applied: the summary shows its discount.`
                : codeTyped && !codeError
                  ? "Apply the code to see its discount before paying."
                  : undefined
            }
            error={codeError}
            errorLines={2}
          >
            {(props) => (
              <div className="flex gap-2 sm:max-w-sm">
                <Input
                  {...props}
                  {...form.field("couponCode")}
                  onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
                    if (event.key !== "Enter") return;
                    event.preventDefault();
                    preview.apply();
                  }}
                  autoComplete="off"
                  spellCheck={false}
                  className="font-mono uppercase"
                />
                <Button
                  type="button"
                  variant="outline"
                  onClick={preview.apply}
                  disabled={preview.pending || !codeTyped}
                  aria-describedby={props["aria-describedby"]}
                >
                  {preview.pending ? "Applying…" : "Apply"}
                </Button>
              </div>
            )}
          </Field>
        </fieldset>

        <fieldset className="grid gap-2 rounded-lg border border-border bg-card p-6">
          <legend className="px-1 text-base font-semibold">Card</legend>
          {testMode ? <TestCardsNote /> : null}
          <CardFields
            idPrefix="checkout"
            values={form.values}
            setValues={form.setValues}
            errors={form.fieldErrors}
          />
        </fieldset>
      </div>

      <aside aria-labelledby="order-summary" className="grid content-start gap-4 lg:sticky lg:top-20">
        <div className="rounded-lg border border-border bg-card p-6">
          <h2 id="order-summary" className="text-base font-semibold">
            Order summary
          </h2>
          {shown ? (
            <PreviewSummary quote={quote} preview={shown} />
          ) : (
            <dl className="mt-4 grid gap-3 text-sm">
              <div className="flex items-baseline justify-between gap-4">
                <dt>
                  {quote.plan.name}, {quote.interval}
                </dt>
                <dd className="tabular" data-testid="summary-price">
                  {inclusive && country ? country.total : quote.price}
                </dd>
              </div>
              <div className="flex items-baseline justify-between gap-4 text-muted-foreground">
                <dt>{country ? `Tax (${country.code} ${country.rate}%)` : "Tax"}</dt>
                <dd className="tabular" data-testid="summary-tax">
                  {country ? (inclusive ? `incl. ${country.tax}` : country.tax) : "Choose a country"}
                </dd>
              </div>
              <div className="flex items-baseline justify-between gap-4 border-t border-border pt-3 text-base font-semibold">
                <dt>Total</dt>
                <dd className="tabular" data-testid="summary-total">
                  {country ? country.total : quote.price}
                </dd>
              </div>
            </dl>
          )}
          <p className="mt-1 text-xs text-muted-foreground">
            {quote.currency} per {per}
            {country ? "" : ", before tax"}
            {shown ? ", with the promotion code's discount" : ""}
            {codeTyped && !shown ? ", before the promotion code's discount" : ""}.
          </p>
          {shown ? null : (
            <div className="mt-4 flex items-center gap-2">
              <ChoiceInput
                id={selectId}
                type="checkbox"
                checked={inclusive}
                onChange={(e) => setInclusive(e.target.checked)}
                className="size-4 accent-primary"
              />
              <Label htmlFor={selectId} className="font-normal">
                Show the price with tax included
              </Label>
            </div>
          )}
          <SubmitButton pending={form.pending} pendingLabel="Paying…" className="mt-6 w-full">
            {shown ? `Pay ${shown.total}` : country && !codeTyped ? `Pay ${country.total}` : "Pay"}
          </SubmitButton>
          <FormError id="checkout-form-error" message={form.formError} />
        </div>
        <p className="text-xs leading-5 text-muted-foreground">
          {quote.currency === "USD"
            ? `Prices are set in US dollars.`
            : `${quote.usd} USD converted at ${shortRate(quote.fxRate)} (ECB rates of ${quote.fxDate}), rounded once to ${quote.currencyName} minor units.`}{" "}
          Tax: standard VAT/GST rates as of {quote.taxDate}.
        </p>
      </aside>
    </form>
  );
}

/** The summary's lines for an order priced with a promotion code (see `usePreview`). */
function PreviewSummary({ quote, preview }: { quote: CheckoutQuote; preview: CheckoutPreview }) {
  return (
    <dl className="mt-4 grid gap-3 text-sm" data-testid="summary-preview">
      <div className="flex items-baseline justify-between gap-4">
        <dt>
          {quote.plan.name}, {quote.interval}
        </dt>
        <dd className="tabular" data-testid="summary-price">
          {preview.subtotal}
        </dd>
      </div>
      <div className="flex items-baseline justify-between gap-4 text-emerald-700 dark:text-emerald-400">
        <dt>
          Discount (<span className="font-mono whitespace-nowrap">{preview.code}</span>)
        </dt>
        <dd className="tabular" data-testid="summary-discount">
          {preview.discount}
        </dd>
      </div>
      <div className="flex items-baseline justify-between gap-4 text-muted-foreground">
        <dt>Tax ({preview.taxLabel})</dt>
        <dd className="tabular" data-testid="summary-tax">
          {preview.tax}
        </dd>
      </div>
      <div className="flex items-baseline justify-between gap-4 border-t border-border pt-3 text-base font-semibold">
        <dt>Total</dt>
        <dd className="tabular" data-testid="summary-total">
          {preview.total}
        </dd>
      </div>
    </dl>
  );
}

/** The inputs a preview was priced with; a preview is shown only while they match the form. */
function previewKey(quote: CheckoutQuote, values: { country: string; vatId: string; couponCode: string }) {
  return [
    quote.plan.id,
    quote.interval,
    quote.currency,
    values.country,
    values.vatId.trim(),
    values.couponCode.trim().toUpperCase(),
  ].join("|");
}

/**
 * The applied promotion code's preview. `apply` asks the server; once a code is applied, any change
 * of plan, interval, currency, country or VAT ID asks again (a short pause first, so typing a VAT ID
 * sends one request). Answers that arrive out of order are dropped. A refused code's message is kept
 * for the field until the code or the order changes.
 */
function usePreview(quote: CheckoutQuote, values: { country: string; vatId: string; couponCode: string }) {
  const [state, setState] = useState<{
    key: string;
    preview: CheckoutPreview | null;
    errors: Record<string, string>;
  } | null>(null);
  // The code the customer applied (upper case); a preview shows only while the field still says it.
  const [appliedCode, setAppliedCode] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const sequence = useRef(0);
  const key = previewKey(quote, values);
  const code = values.couponCode.trim().toUpperCase();
  const latest = useRef({ key, code, appliedCode, values, quote });
  latest.current = { key, code, appliedCode, values, quote };

  const run = useRef(async () => {
    const { key: asked, values: v, quote: q } = latest.current;
    const mine = ++sequence.current;
    setPending(true);
    const result = await callAction(() =>
      previewCheckoutAction({
        plan: q.plan.id,
        interval: q.interval,
        currency: q.currency,
        country: v.country,
        vatId: v.vatId,
        couponCode: v.couponCode,
      }),
    );
    if (mine !== sequence.current) return;
    setPending(false);
    if (!result) return;
    if (result.ok) {
      setState({ key: asked, preview: result.data, errors: {} });
      return;
    }
    const errors = result.fieldErrors ?? {};
    setState({
      key: asked,
      preview: null,
      errors: Object.keys(errors).length > 0 ? errors : { couponCode: result.error },
    });
    if (errors.couponCode) setAppliedCode(null);
  }).current;

  // An applied code is priced again when the order changes (a short pause first, so that typing a
  // VAT ID asks once); editing the code itself un-applies it until "Apply".
  const order = key.slice(0, key.lastIndexOf("|"));
  useEffect(() => {
    if (!order) return;
    const now = latest.current;
    if (!now.appliedCode || now.appliedCode !== now.code) return;
    if (state?.key === now.key) return;
    const timer = setTimeout(() => void run(), 300);
    return () => clearTimeout(timer);
  }, [order, run, state?.key]);

  const current = state && state.key === key ? state : null;
  return {
    current: appliedCode !== null && appliedCode === code ? (current?.preview ?? null) : null,
    errors: current?.errors ?? {},
    pending,
    apply: () => {
      if (!code || pending) return;
      setAppliedCode(code);
      void run();
    },
  };
}

/** The cards the offline test provider knows, by outcome; the docs list them all. */
function TestCardsNote() {
  return (
    <div
      className="mb-2 grid gap-1 rounded-md border border-amber-500/60 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-50"
      data-testid="test-cards"
    >
      <p className="flex items-center gap-2 font-medium">
        <FlaskConical className="size-4 shrink-0" aria-hidden />
        Test mode: no card is charged
      </p>
      <p>
        Pay with <span className="font-mono whitespace-nowrap">4242 4242 4242 4242</span>, any future expiry
        and any CVC. Cards that decline, run out of funds or time out are in the{" "}
        <Link className="font-medium underline underline-offset-4" href="/docs#test-cards">
          list of test cards
        </Link>
        .
      </p>
    </div>
  );
}
