"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { notify } from "@/components/hooks/notify";
import { useActionForm } from "@/components/hooks/use-action-form";
import { refreshViewer } from "@/components/shell/viewer-store";
import { FormInput } from "@/components/ui/form-input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { signInAction } from "./actions";

const awaitsConfirmation = (path: string) => path.startsWith("/sign-up/confirm");

/** `email`: the address an invitation was sent to, filled in. */
export function SignInForm({ redirectUrl, email }: { redirectUrl?: string; email?: string }) {
  const router = useRouter();
  const form = useActionForm(
    { email: email ?? "", password: "" },
    (values) => signInAction({ ...values, redirectUrl }),
    {
      idPrefix: "sign-in",
      // An unconfirmed address continues at the code screen, and two-factor at the code prompt:
      // a note, not a "signed in" success.
      success: (result) =>
        result.data.twoFactor || awaitsConfirmation(result.data.redirectTo)
          ? null
          : (result.message ?? "Signed in."),
      onSuccess: (result) => {
        if (awaitsConfirmation(result.data.redirectTo) && result.message) notify.info(result.message);
        void refreshViewer();
        router.replace(result.data.redirectTo);
        router.refresh();
      },
    },
  );
  return (
    <form noValidate onSubmit={form.submit} className="grid gap-1">
      <FormInput
        form={form}
        name="email"
        id="sign-in-email"
        label="Email"
        type="email"
        autoComplete="email"
        autoFocus
      />
      <FormInput
        form={form}
        name="password"
        id="sign-in-password"
        label="Password"
        type="password"
        autoComplete="current-password"
      />
      <div className="mb-1 flex justify-end">
        <Link
          href="/sign-in/forgot-password"
          className="text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          Forgot password?
        </Link>
      </div>
      <FormError id="sign-in-error" message={form.formError} />
      <SubmitButton pending={form.pending} pendingLabel="Signing in…" className="mt-2 w-full">
        Sign in
      </SubmitButton>
    </form>
  );
}
