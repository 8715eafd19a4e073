"use client";

import { useRouter } from "next/navigation";
import { useActionForm } from "@/components/hooks/use-action-form";
import { refreshViewer } from "@/components/shell/viewer-store";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { PASSWORD_MIN } from "@/core/auth/constants";
import { signUpAction } from "./actions";

export function SignUpForm({ redirectUrl }: { redirectUrl?: string }) {
  const router = useRouter();
  const form = useActionForm(
    { name: "", email: "", password: "" },
    (values) => signUpAction({ ...values, redirectUrl }),
    {
      idPrefix: "sign-up",
      success: "Account created. Let's set it up.",
      onSuccess: (result) => {
        void refreshViewer();
        router.replace(result.data.redirectTo);
        router.refresh();
      },
    },
  );
  return (
    <form noValidate onSubmit={form.submit} className="grid gap-1">
      <Field id="sign-up-name" label="Name" error={form.fieldErrors.name}>
        {(props) => <Input {...props} {...form.field("name")} autoComplete="name" autoFocus />}
      </Field>
      <Field id="sign-up-email" label="Email" error={form.fieldErrors.email}>
        {(props) => <Input {...props} {...form.field("email")} type="email" autoComplete="email" />}
      </Field>
      <Field
        id="sign-up-password"
        label="Password"
        hint={`At least ${PASSWORD_MIN} characters, and not a common password.`}
        error={form.fieldErrors.password}
      >
        {(props) => (
          <Input {...props} {...form.field("password")} type="password" autoComplete="new-password" />
        )}
      </Field>
      <FormError id="sign-up-error" message={form.formError} />
      <SubmitButton pending={form.pending} pendingLabel="Creating your account…" className="mt-2 w-full">
        Create account
      </SubmitButton>
    </form>
  );
}
