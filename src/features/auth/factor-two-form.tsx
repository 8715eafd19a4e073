"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useActionForm } from "@/components/hooks/use-action-form";
import { refreshViewer } from "@/components/shell/viewer-store";
import { ChoiceInput } from "@/components/ui/choice-input";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { verifyTwoFactorAction } from "./actions";

export function FactorTwoForm({ redirectUrl }: { redirectUrl?: string }) {
  const router = useRouter();
  const [method, setMethod] = useState<"totp" | "backup">("totp");
  const [trustDevice, setTrustDevice] = useState(false);
  const form = useActionForm(
    { code: "" },
    (values) => verifyTwoFactorAction({ ...values, method, trustDevice, redirectUrl }),
    {
      idPrefix: "factor-two",
      success: "Signed in.",
      onSuccess: (result) => {
        void refreshViewer();
        router.replace(result.data.redirectTo);
        router.refresh();
      },
    },
  );
  const totp = method === "totp";
  return (
    <form noValidate onSubmit={form.submit} className="grid gap-1">
      <Field
        id="factor-two-code"
        label={totp ? "Authentication code" : "Backup code"}
        hint={
          totp
            ? "The 6-digit code your authenticator app shows for Abacus."
            : "One of the backup codes you saved. Each works once."
        }
        error={form.fieldErrors.code}
      >
        {(props) => (
          <Input
            {...props}
            {...form.field("code")}
            key={method}
            inputMode={totp ? "numeric" : "text"}
            autoComplete="one-time-code"
            className="font-mono tabular-nums tracking-widest"
            autoFocus
          />
        )}
      </Field>
      <label className="mb-2 flex items-center gap-2 text-sm">
        <ChoiceInput
          type="checkbox"
          checked={trustDevice}
          onChange={(event) => setTrustDevice(event.target.checked)}
          className="size-4 accent-primary"
        />
        Trust this device for 30 days
      </label>
      <FormError id="factor-two-error" message={form.formError} />
      <SubmitButton pending={form.pending} pendingLabel="Checking…" className="w-full">
        Verify
      </SubmitButton>
      <button
        type="button"
        className="mt-3 text-sm font-medium text-primary underline-offset-4 hover:underline"
        onClick={() => {
          setMethod(totp ? "backup" : "totp");
          form.setValues({ code: "" });
        }}
      >
        {totp ? "Use a backup code instead" : "Use your authenticator app instead"}
      </button>
    </form>
  );
}
