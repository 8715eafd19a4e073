"use client";

import { useActionForm } from "@/components/hooks/use-action-form";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect, Textarea } from "@/components/ui/input";
import { FormActions } from "@/components/ui/submit-button";
import { saveBillingProfileAction } from "../actions";
import type { BillingProfileValues } from "../plan-schemas";

/**
 * The organization's billing details (name, country, address, invoice email, VAT ID). Owners and
 * admins edit them; members see them read-only. The form keeps what was typed when it is refused.
 */
export function BillingProfileForm({
  initial,
  countries,
  canManage,
}: {
  initial: BillingProfileValues;
  countries: { value: string; label: string }[];
  canManage: boolean;
}) {
  const form = useActionForm(initial, (values) => saveBillingProfileAction(values), {
    success: "Billing details saved.",
    idPrefix: "billing-profile",
  });
  const disabled = !canManage;
  return (
    <form className="grid gap-2" onSubmit={form.submit} noValidate>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field id="billing-profile-name" label="Name on invoices" error={form.fieldErrors.name}>
          {(props) => (
            <Input
              {...props}
              {...form.field("name")}
              maxLength={200}
              disabled={disabled}
              autoComplete="organization"
            />
          )}
        </Field>
        <Field id="billing-profile-country" label="Country" error={form.fieldErrors.country}>
          {(props) => (
            <NativeSelect {...props} {...form.field("country")} disabled={disabled}>
              <option value="">Choose a country…</option>
              {countries.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      </div>
      <Field
        id="billing-profile-address"
        label="Address"
        hint="Optional; printed under the name."
        error={form.fieldErrors.address}
      >
        {(props) => (
          <Textarea {...props} {...form.field("address")} rows={3} maxLength={500} disabled={disabled} />
        )}
      </Field>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          id="billing-profile-email"
          label="Invoice email"
          hint="Optional."
          error={form.fieldErrors.email}
        >
          {(props) => (
            <Input {...props} {...form.field("email")} type="email" maxLength={254} disabled={disabled} />
          )}
        </Field>
        <Field
          id="billing-profile-vatId"
          label="VAT ID"
          hint="Optional, e.g. DE123456789."
          error={form.fieldErrors.vatId}
        >
          {(props) => <Input {...props} {...form.field("vatId")} maxLength={32} disabled={disabled} />}
        </Field>
      </div>
      {canManage ? (
        <FormActions form={form} errorId="billing-profile-error" pendingLabel="Saving…">
          Save billing details
        </FormActions>
      ) : (
        <p className="text-sm text-muted-foreground">
          Only owners and admins can change the billing details.
        </p>
      )}
    </form>
  );
}
