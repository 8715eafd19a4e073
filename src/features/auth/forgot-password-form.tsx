"use client";

import { MailCheck } from "lucide-react";
import { useState } from "react";
import { useActionForm } from "@/components/hooks/use-action-form";
import { FormInput } from "@/components/ui/form-input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { forgotPasswordAction } from "./actions";

export function ForgotPasswordForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useActionForm({ email: "" }, forgotPasswordAction, {
    idPrefix: "forgot",
    success: "If that address has an account, a reset link is on its way.",
    onSuccess: (result) => setSentTo(result.data.email),
  });
  if (sentTo) {
    return (
      <div className="grid gap-3" role="status">
        <MailCheck className="size-8 text-primary" aria-hidden="true" />
        <h2 className="text-lg font-semibold">Check your email</h2>
        <p className="text-sm text-muted-foreground">
          If <span className="font-medium text-foreground">{sentTo}</span> has an Abacus account, we sent it a
          link to choose a new password. The link works once, for 1 hour.
        </p>
      </div>
    );
  }
  return (
    <form noValidate onSubmit={form.submit} className="grid gap-1">
      <FormInput
        form={form}
        name="email"
        id="forgot-email"
        label="Email"
        type="email"
        autoComplete="email"
        autoFocus
      />
      <FormError id="forgot-error" message={form.formError} />
      <SubmitButton pending={form.pending} pendingLabel="Sending…" className="mt-2 w-full">
        Send reset link
      </SubmitButton>
    </form>
  );
}
