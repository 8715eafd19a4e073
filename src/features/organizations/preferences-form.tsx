"use client";

import { useActionForm } from "@/components/hooks/use-action-form";
import { CurrencyCombobox } from "@/components/money/currency-combobox";
import { RoundingSelect } from "@/components/money/rounding-select";
import { Field } from "@/components/ui/field";
import { FormInput } from "@/components/ui/form-input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { CURRENCIES } from "@/core/money/currencies";
import { isRoundingMode } from "@/core/rounding";
import { updatePreferencesAction } from "./actions";
import { useRefresh } from "./member-roles";

const CURRENCY_CODES = CURRENCIES.map((c) => c.code);

/**
 * The organization's calculator defaults (set first during onboarding): every member's calculator
 * starts from them. Owners and admins change them; members see them.
 */
export function PreferencesForm({
  defaultCurrency,
  roundingMode,
  precision,
  canEdit,
}: {
  defaultCurrency: string;
  roundingMode: string;
  precision: number;
  canEdit: boolean;
}) {
  const refresh = useRefresh();
  const form = useActionForm(
    { defaultCurrency, roundingMode, precision: String(precision) },
    updatePreferencesAction,
    { idPrefix: "org-prefs", success: "Preferences saved.", onSuccess: refresh },
  );
  return (
    // One column that may shrink below its content: the rounding mode's long labels truncate instead
    // of pushing the fields out of a phone's card.
    <form noValidate onSubmit={form.submit} className="grid max-w-md grid-cols-[minmax(0,1fr)] gap-1">
      <Field id="org-prefs-defaultCurrency" label="Default currency" error={form.fieldErrors.defaultCurrency}>
        {(props) => (
          <CurrencyCombobox
            {...props}
            codes={CURRENCY_CODES}
            value={form.values.defaultCurrency}
            onValueChange={(code) => form.setValues((v) => ({ ...v, defaultCurrency: code }))}
            disabled={!canEdit}
            className="min-w-0"
          />
        )}
      </Field>
      <Field id="org-prefs-roundingMode" label="Rounding mode" error={form.fieldErrors.roundingMode}>
        {(props) => (
          <RoundingSelect
            {...props}
            value={isRoundingMode(form.values.roundingMode) ? form.values.roundingMode : ""}
            onValueChange={(mode) => form.setValues((v) => ({ ...v, roundingMode: mode }))}
            disabled={!canEdit}
            className="min-w-0"
          />
        )}
      </Field>
      <FormInput
        form={form}
        name="precision"
        id="org-prefs-precision"
        label="Precision (significant digits)"
        hint="1 to 1,000. 20 is plenty for money."
        inputMode="numeric"
        disabled={!canEdit}
      />
      <FormError id="org-prefs-error" message={form.formError} />
      {canEdit ? (
        <div>
          <SubmitButton pending={form.pending} variant="outline">
            Save preferences
          </SubmitButton>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Only owners and admins can change these.</p>
      )}
    </form>
  );
}
