"use client";

import { Monitor } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { PasswordStrengthMeter } from "@/components/auth/password-strength-meter";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { useActionForm } from "@/components/hooks/use-action-form";
import { setFlash } from "@/components/shell/flash";
import { refreshViewer } from "@/components/shell/viewer-store";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormInput } from "@/components/ui/form-input";
import { Input } from "@/components/ui/input";
import { FormActions } from "@/components/ui/submit-button";
import { PASSWORD_MIN } from "@/core/auth/constants";
import {
  changeEmailAction,
  changePasswordAction,
  deleteAccountAction,
  revokeSessionAction,
  updateNameAction,
} from "./actions";

export function NameForm({ name }: { name: string }) {
  const router = useRouter();
  const form = useActionForm({ name }, updateNameAction, {
    idPrefix: "profile",
    success: "Name saved.",
    onSuccess: () => {
      void refreshViewer();
      router.refresh();
    },
  });
  return (
    <form noValidate onSubmit={form.submit} className="grid max-w-md gap-1">
      <FormInput form={form} name="name" id="profile-name" label="Name" autoComplete="name" />
      <FormActions form={form} errorId="profile-name-form-error" variant="outline">
        Save name
      </FormActions>
    </form>
  );
}

export function EmailForm({ email }: { email: string }) {
  const router = useRouter();
  const form = useActionForm({ email }, changeEmailAction, {
    idPrefix: "profile",
    success: (result) => result.message ?? "Check your new address for a confirmation link.",
    onSuccess: () => router.refresh(),
  });
  return (
    <form noValidate onSubmit={form.submit} className="grid max-w-md gap-1">
      <FormInput
        form={form}
        name="email"
        id="profile-email"
        label="Email"
        type="email"
        autoComplete="email"
      />
      <FormActions form={form} errorId="profile-email-form-error" variant="outline">
        Change email
      </FormActions>
    </form>
  );
}

export function PasswordForm({ userInputs = [] }: { userInputs?: string[] }) {
  const router = useRouter();
  const empty = { currentPassword: "", newPassword: "", confirmPassword: "" };
  const form = useActionForm(empty, changePasswordAction, {
    idPrefix: "password",
    success: "Password changed. Your other sessions were signed out.",
    resetOnSuccess: true,
    onSuccess: () => router.refresh(),
  });
  return (
    <form noValidate onSubmit={form.submit} className="grid max-w-md gap-1">
      <Field id="password-currentPassword" label="Current password" error={form.fieldErrors.currentPassword}>
        {(props) => (
          <Input
            {...props}
            {...form.field("currentPassword")}
            type="password"
            autoComplete="current-password"
          />
        )}
      </Field>
      <FormInput
        form={form}
        name="newPassword"
        id="password-newPassword"
        label="New password"
        hint={`At least ${PASSWORD_MIN} characters and hard to guess.`}
        type="password"
        autoComplete="new-password"
      />
      <PasswordStrengthMeter password={form.values.newPassword} userInputs={userInputs} />
      <FormInput
        form={form}
        name="confirmPassword"
        id="password-confirmPassword"
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
      />
      <FormActions form={form} errorId="password-error" variant="outline">
        Change password
      </FormActions>
    </form>
  );
}

export type SessionRow = {
  id: string;
  current: boolean;
  device: string;
  ip: string | null;
  lastActive: string;
};

export function SessionList({ sessions }: { sessions: SessionRow[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  function revoke(sessionId: string) {
    startTransition(async () => {
      const result = await callAction(() => revokeSessionAction({ sessionId }));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success("Session revoked. That device is signed out.");
      router.refresh();
    });
  }
  return (
    <ul className="grid gap-2" aria-label="Active sessions">
      {sessions.map((s) => (
        <li
          key={s.id}
          className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-border p-3"
        >
          <div className="flex min-w-0 items-start gap-3">
            <Monitor className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
            <div className="min-w-0 text-sm">
              <p className="truncate font-medium">
                {s.device}
                {s.current ? (
                  <span className="ml-2 rounded-full bg-accent px-2 py-0.5 text-xs text-accent-foreground">
                    This device
                  </span>
                ) : null}
              </p>
              <p className="text-muted-foreground">
                {s.ip ? `${s.ip} · ` : ""}Last active {s.lastActive}
              </p>
            </div>
          </div>
          {s.current ? null : (
            <Button
              size="sm"
              variant="outline"
              onClick={() => revoke(s.id)}
              disabled={pending}
              aria-label={`Revoke ${s.device}, last active ${s.lastActive}`}
            >
              Revoke
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

export function DeleteAccountForm() {
  const form = useActionForm({ password: "", confirm: "" }, deleteAccountAction, {
    idPrefix: "delete",
    onSuccess: () => {
      // "Your account has been deleted." is announced by the page this lands on (core/flash.ts).
      setFlash("account-deleted");
      void refreshViewer();
      window.location.assign("/");
    },
  });
  return (
    <form noValidate onSubmit={form.submit} className="grid max-w-md gap-1">
      <p className="mb-3 text-sm text-muted-foreground">
        This deletes your account, your sessions and your memberships. It cannot be undone. If you are the
        only owner of an organization, make another member its owner or delete it first.
      </p>
      <FormInput
        form={form}
        name="password"
        id="delete-password"
        label="Password"
        type="password"
        autoComplete="current-password"
      />
      <FormInput
        form={form}
        name="confirm"
        id="delete-confirm"
        label="Type DELETE to confirm"
        autoComplete="off"
      />
      <FormActions form={form} errorId="delete-error" variant="destructive">
        Delete my account
      </FormActions>
    </form>
  );
}
