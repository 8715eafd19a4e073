"use client";

import { useRouter } from "next/navigation";
import { PasswordStrengthMeter } from "@/components/auth/password-strength-meter";
import { useActionForm } from "@/components/hooks/use-action-form";
import { Field } from "@/components/ui/field";
import { FormInput } from "@/components/ui/form-input";
import { Input } from "@/components/ui/input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { resetPasswordAction } from "./actions";

export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const form = useActionForm(
    { newPassword: "", confirmPassword: "" },
    (values) => resetPasswordAction({ ...values, token }),
    {
      idPrefix: "reset",
      success: "Your password was changed. Sign in with it now.",
      onSuccess: () => router.replace("/sign-in"),
    },
  );
  return (
    <form noValidate onSubmit={form.submit} className="grid gap-1">
      <Field id="reset-newPassword" label="New password" error={form.fieldErrors.newPassword}>
        {(props) => (
          <Input
            {...props}
            {...form.field("newPassword")}
            type="password"
            autoComplete="new-password"
            autoFocus
          />
        )}
      </Field>
      <PasswordStrengthMeter password={form.values.newPassword} />
      <FormInput
        form={form}
        name="confirmPassword"
        id="reset-confirmPassword"
        label="Repeat new password"
        type="password"
        autoComplete="new-password"
      />
      <FormError id="reset-error" message={form.formError} />
      <SubmitButton pending={form.pending} pendingLabel="Saving…" className="mt-2 w-full">
        Set new password
      </SubmitButton>
    </form>
  );
}
