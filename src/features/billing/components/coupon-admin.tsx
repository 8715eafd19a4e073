"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { useActionForm } from "@/components/hooks/use-action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { createCouponAction, deactivateCouponAction } from "../coupon-actions";
import type { CouponListRow } from "../server/coupons";

const KIND_OPTIONS = [
  { value: "percent", label: "Percentage off" },
  { value: "fixed", label: "Fixed amount off" },
] as const;
const DURATION_OPTIONS = [
  { value: "once", label: "First charge only" },
  { value: "repeating", label: "A number of charges" },
  { value: "forever", label: "Every charge" },
] as const;

const EMPTY = {
  code: "",
  kind: "percent" as string,
  percentOff: "",
  amounts: "",
  duration: "once" as string,
  durationPeriods: "",
  expiresOn: "",
  maxRedemptions: "",
};

/** A platform admin's coupons: the form that creates one, and the newest coupons with their use. */
export function CouponAdmin({ rows, limit }: { rows: CouponListRow[]; limit: number }) {
  return (
    <div className="grid gap-8">
      <NewCouponForm />
      <section aria-labelledby="coupon-list" className="grid gap-4">
        <h2 id="coupon-list" className="text-lg font-semibold">
          Coupons
        </h2>
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">No coupon yet.</p>
        ) : (
          <>
            <ul className="grid gap-3" data-testid="coupon-list">
              {rows.map((row) => (
                <CouponRow key={row.id} row={row} />
              ))}
            </ul>
            {rows.length >= limit ? (
              <p className="text-sm text-muted-foreground">The newest {limit} coupons are shown.</p>
            ) : null}
          </>
        )}
      </section>
    </div>
  );
}

const STATE_LABEL: Record<CouponListRow["state"], string> = {
  active: "Active",
  inactive: "Inactive",
  expired: "Expired",
  exhausted: "Used up",
};

function CouponRow({ row }: { row: CouponListRow }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  function deactivate() {
    startTransition(async () => {
      const result = await callAction(() => deactivateCouponAction({ id: row.id }));
      if (!result) return;
      if (!result.ok) {
        notify.error(result.error);
        return;
      }
      notify.success(result.message ?? "Deactivated.");
      router.refresh();
    });
  }
  return (
    <li className="grid gap-2 rounded-lg border border-border p-4 text-sm" data-testid={`coupon-${row.code}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <span className="font-mono font-semibold break-all">{row.code}</span>
        <span
          className={
            row.state === "active"
              ? "rounded-full border border-emerald-600/50 px-2 py-0.5 text-xs text-emerald-800 dark:text-emerald-300"
              : "rounded-full border border-border px-2 py-0.5 text-xs text-muted-foreground"
          }
          data-testid="coupon-state"
        >
          {STATE_LABEL[row.state]}
        </span>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr_auto_1fr]">
        <dt className="text-muted-foreground">Discount</dt>
        <dd className="tabular break-words">{row.value}</dd>
        <dt className="text-muted-foreground">Applies to</dt>
        <dd>{row.duration}</dd>
        <dt className="text-muted-foreground">Redeemed</dt>
        <dd className="tabular" data-testid="coupon-redemptions">
          {row.redemptions}
        </dd>
        <dt className="text-muted-foreground">Last day</dt>
        <dd className="tabular">{row.expires ?? "none"}</dd>
      </dl>
      {row.state !== "inactive" ? (
        <div>
          <Button type="button" variant="outline" size="sm" onClick={deactivate} disabled={pending}>
            {pending ? "Deactivating…" : `Deactivate ${row.code}`}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

function NewCouponForm() {
  const router = useRouter();
  const form = useActionForm(EMPTY, (values) => createCouponAction(values), {
    idPrefix: "coupon",
    success: (r) => r.message ?? "Coupon created.",
    resetOnSuccess: true,
    onSuccess: () => router.refresh(),
  });
  const select = (name: "kind" | "duration") => (value: string) =>
    form.setValues((v) => ({ ...v, [name]: value }));
  return (
    <form
      noValidate
      onSubmit={form.submit}
      className="grid gap-4 rounded-lg border border-border bg-card p-6"
      aria-labelledby="new-coupon"
    >
      <h2 id="new-coupon" className="text-lg font-semibold">
        New coupon
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="coupon-code"
          label="Code"
          hint="What customers type at checkout."
          error={form.fieldErrors.code}
          errorLines={2}
        >
          {(props) => (
            <Input
              {...props}
              {...form.field("code")}
              autoComplete="off"
              spellCheck={false}
              className="font-mono uppercase"
            />
          )}
        </Field>
        <Field id="coupon-kind" label="Discount" error={form.fieldErrors.kind}>
          {(props) => (
            <SimpleSelect
              {...props}
              value={form.values.kind as "percent"}
              onValueChange={select("kind")}
              options={KIND_OPTIONS}
            />
          )}
        </Field>
        {form.values.kind === "fixed" ? (
          <Field
            id="coupon-amounts"
            label="Amounts"
            hint="One per currency it can be used in, e.g. USD 5.00, EUR 4.50."
            error={form.fieldErrors.amounts}
            errorLines={2}
          >
            {(props) => <Input {...props} {...form.field("amounts")} autoComplete="off" spellCheck={false} />}
          </Field>
        ) : (
          <Field
            id="coupon-percentOff"
            label="Percentage off"
            hint="Up to 100, e.g. 25 or 12.5."
            error={form.fieldErrors.percentOff}
            errorLines={2}
          >
            {(props) => (
              <Input {...props} {...form.field("percentOff")} inputMode="decimal" autoComplete="off" />
            )}
          </Field>
        )}
        <Field id="coupon-duration" label="Applies to" error={form.fieldErrors.duration}>
          {(props) => (
            <SimpleSelect
              {...props}
              value={form.values.duration as "once"}
              onValueChange={select("duration")}
              options={DURATION_OPTIONS}
            />
          )}
        </Field>
        {form.values.duration === "repeating" ? (
          <Field
            id="coupon-durationPeriods"
            label="Number of charges"
            hint="The first purchase counts as one."
            error={form.fieldErrors.durationPeriods}
            errorLines={2}
          >
            {(props) => (
              <Input {...props} {...form.field("durationPeriods")} inputMode="numeric" autoComplete="off" />
            )}
          </Field>
        ) : null}
        <Field
          id="coupon-expiresOn"
          label="Last day (optional)"
          hint="YYYY-MM-DD, UTC. Empty: no end."
          error={form.fieldErrors.expiresOn}
          errorLines={2}
        >
          {(props) => <Input {...props} {...form.field("expiresOn")} type="date" />}
        </Field>
        <Field
          id="coupon-maxRedemptions"
          label="Redemption cap (optional)"
          hint="How many organizations may use it. Empty: no cap."
          error={form.fieldErrors.maxRedemptions}
          errorLines={2}
        >
          {(props) => (
            <Input {...props} {...form.field("maxRedemptions")} inputMode="numeric" autoComplete="off" />
          )}
        </Field>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pending={form.pending} pendingLabel="Creating…">
          Create coupon
        </SubmitButton>
        <FormError id="coupon-form-error" message={form.formError} />
      </div>
    </form>
  );
}
