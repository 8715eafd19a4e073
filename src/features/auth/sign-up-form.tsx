"use client";

import { useRouter } from "next/navigation";
import { PasswordStrengthMeter } from "@/components/auth/password-strength-meter";
import { useActionForm } from "@/components/hooks/use-action-form";
import { FormInput } from "@/components/ui/form-input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { PASSWORD_MIN } from "@/core/auth/constants";
import { signUpAction } from "./actions";

/** `email`: the address an invitation was sent to, filled in (the invitation accepts no other). */
export function SignUpForm({ redirectUrl, email }: { redirectUrl?: string; email?: string }) {
  const router = useRouter();
  const form = useActionForm(
    { name: "", email: email ?? "", password: "" },
    (values) => signUpAction({ ...values, redirectUrl }),
    {
      idPrefix: "sign-up",
      // No toast: the next screen says what to do.
      onSuccess: (result) => router.push(result.data.redirectTo),
    },
  );
  return (
    <form noValidate onSubmit={form.submit} className="grid gap-1">
      <FormInput form={form} name="name" id="sign-up-name" label="Name" autoComplete="name" autoFocus />
      <FormInput
        form={form}
        name="email"
        id="sign-up-email"
        label="Email"
        type="email"
        autoComplete="email"
      />
      <FormInput
        form={form}
        name="password"
        id="sign-up-password"
        label="Password"
        hint={`At least ${PASSWORD_MIN} characters and hard to guess.`}
        type="password"
        autoComplete="new-password"
      />
      <PasswordStrengthMeter
        password={form.values.password}
        userInputs={[form.values.name, form.values.email]}
      />
      <FormError id="sign-up-error" message={form.formError} />
      <SubmitButton pending={form.pending} pendingLabel="Creating your account…" className="mt-2 w-full">
        Create account
      </SubmitButton>
    </form>
  );
}
