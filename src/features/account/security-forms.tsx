"use client";

import { Download, MailWarning, ShieldCheck } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { useActionForm } from "@/components/hooks/use-action-form";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { FormInput } from "@/components/ui/form-input";
import { Input } from "@/components/ui/input";
import { FormActions, FormError, SubmitButton } from "@/components/ui/submit-button";
import { backupCodesFile } from "@/core/auth/backup-codes";
import {
  confirmTwoFactorAction,
  disableTwoFactorAction,
  regenerateBackupCodesAction,
  resendVerificationAction,
  startTwoFactorAction,
} from "./actions";

/** Shown to users who have not confirmed their address yet, with a way to get a new link. */
export function VerifyEmailNotice({ email, reason }: { email: string; reason?: string }) {
  const [pending, startTransition] = useTransition();
  function resend() {
    startTransition(async () => {
      const result = await callAction(() => resendVerificationAction({}));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success(`We sent a new link to ${email}.`);
    });
  }
  return (
    <div
      role="status"
      className="flex flex-wrap items-start justify-between gap-4 rounded-lg border border-amber-500/60 bg-amber-500/10 p-4"
    >
      <div className="flex min-w-0 items-start gap-3">
        <MailWarning className="mt-0.5 size-5 shrink-0 text-amber-700 dark:text-amber-400" aria-hidden />
        <div className="min-w-0 text-sm">
          <p className="font-medium">Confirm your email address</p>
          <p className="mt-1 text-muted-foreground">
            {reason ??
              "Until you do, you can use the calculator but not buy a plan, create API keys or join organizations."}{" "}
            We sent a link to <span className="font-medium text-foreground">{email}</span>.
          </p>
        </div>
      </div>
      <Button size="sm" variant="outline" onClick={resend} disabled={pending}>
        Send a new link
      </Button>
    </div>
  );
}

type Setup = { secret: string; qrSvg: string; backupCodes: string[]; account: string };

function BackupCodes({ codes, account }: { codes: string[]; account?: string }) {
  const download = () => {
    const file = new Blob([backupCodesFile(codes, account ?? "your account")], { type: "text/plain" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(file);
    link.download = "abacus-backup-codes.txt";
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
  };
  return (
    <div className="grid gap-2">
      <p className="text-sm text-muted-foreground">
        Backup codes: each signs you in once if you lose your device. Keep them somewhere safe; they are shown
        only now.
      </p>
      <ul
        aria-label="Backup codes"
        className="grid grid-cols-2 gap-1 rounded-md border border-border bg-muted/40 p-3 font-mono text-sm tabular-nums sm:grid-cols-3"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={codes.join("\n")} label="Copy codes" />
        <Button type="button" variant="outline" size="sm" onClick={download}>
          <Download aria-hidden />
          Download .txt
        </Button>
      </div>
    </div>
  );
}

/** The key in groups of four for typing by hand; copying (button or selection) gives it unbroken. */
function SetupKey({ secret }: { secret: string }) {
  const groups = secret.match(/.{1,4}/g) ?? [secret];
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2">
      <code
        data-testid="totp-secret"
        className="flex flex-wrap gap-x-2 rounded-md bg-muted px-3 py-2 font-mono text-sm tabular-nums"
      >
        {groups.map((group, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed groups of one string
          <span key={i}>{group}</span>
        ))}
      </code>
      <CopyButton text={secret} label="Copy key" />
    </div>
  );
}

/** Turning TOTP two-factor authentication on (password, scan, confirm a code) and off (password). */
export function TwoFactorSettings({ enabled }: { enabled: boolean }) {
  const router = useRouter();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);

  const start = useActionForm({ password: "" }, startTwoFactorAction, {
    idPrefix: "two-factor-start",
    // No toast: the next step on screen says what to do.
    resetOnSuccess: true,
    onSuccess: (result) => setSetup(result.data),
  });
  const confirm = useActionForm({ code: "" }, confirmTwoFactorAction, {
    idPrefix: "two-factor-confirm",
    success: "Two-factor authentication is on.",
    resetOnSuccess: true,
    onSuccess: () => {
      setSetup(null);
      router.refresh();
    },
  });
  const disable = useActionForm({ password: "" }, disableTwoFactorAction, {
    idPrefix: "two-factor-disable",
    success: "Two-factor authentication is off.",
    resetOnSuccess: true,
    onSuccess: () => router.refresh(),
  });
  const regenerate = useActionForm({ password: "" }, regenerateBackupCodesAction, {
    idPrefix: "two-factor-codes",
    success: "New backup codes created. The old ones no longer work.",
    resetOnSuccess: true,
    onSuccess: (result) => setFreshCodes(result.data.backupCodes),
  });

  if (enabled) {
    return (
      <div className="grid max-w-xl gap-6">
        <p className="flex items-center gap-2 text-sm font-medium">
          <ShieldCheck className="size-4 text-emerald-600" aria-hidden /> Two-factor authentication is on.
        </p>
        {freshCodes ? <BackupCodes codes={freshCodes} /> : null}
        <form noValidate onSubmit={regenerate.submit} className="grid max-w-md gap-1">
          <Field
            id="two-factor-codes-password"
            label="Password for new backup codes"
            error={regenerate.fieldErrors.password}
          >
            {(props) => (
              <Input
                {...props}
                {...regenerate.field("password")}
                type="password"
                autoComplete="current-password"
              />
            )}
          </Field>
          <FormActions form={regenerate} errorId="two-factor-codes-error" variant="outline">
            Create new backup codes
          </FormActions>
        </form>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (
              window.confirm("Turn off two-factor authentication? Signing in will need only your password.")
            ) {
              disable.submit();
            }
          }}
          className="grid max-w-md gap-1"
        >
          <Field
            id="two-factor-disable-password"
            label="Password to turn it off"
            error={disable.fieldErrors.password}
          >
            {(props) => (
              <Input
                {...props}
                {...disable.field("password")}
                type="password"
                autoComplete="current-password"
              />
            )}
          </Field>
          <FormActions form={disable} errorId="two-factor-disable-error" variant="destructive">
            Turn off two-factor authentication
          </FormActions>
        </form>
      </div>
    );
  }

  if (setup) {
    return (
      <div className="grid max-w-xl gap-5">
        <ol className="grid list-decimal gap-4 pl-5 text-sm">
          <li>
            <p>Scan this code with an authenticator app (1Password, Google Authenticator, Aegis…).</p>
            <div
              className="mt-3 size-44 rounded-md border border-border bg-white p-2"
              role="img"
              aria-label={`QR code for Abacus (${setup.account})`}
              // The SVG is made on our server by the qrcode library from our own otpauth URI.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: trusted, server-generated SVG
              dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
            />
            <p className="mt-3 text-muted-foreground">Or enter this key by hand:</p>
            <SetupKey secret={setup.secret} />
          </li>
          <li>
            <BackupCodes codes={setup.backupCodes} account={setup.account} />
          </li>
          <li>
            <form noValidate onSubmit={confirm.submit} className="grid max-w-xs gap-1">
              <Field id="two-factor-confirm-code" label="Code from the app" error={confirm.fieldErrors.code}>
                {(props) => (
                  <Input
                    {...props}
                    {...confirm.field("code")}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    className="font-mono tabular-nums tracking-widest"
                  />
                )}
              </Field>
              <FormError id="two-factor-confirm-error" message={confirm.formError} />
              <div className="flex gap-2">
                <SubmitButton pending={confirm.pending}>Turn on</SubmitButton>
                <Button type="button" variant="ghost" onClick={() => setSetup(null)}>
                  Cancel
                </Button>
              </div>
            </form>
          </li>
        </ol>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={start.submit} className="grid max-w-md gap-1">
      <p className="mb-3 text-sm text-muted-foreground">
        Two-factor authentication is off. With it on, signing in also needs a code from an authenticator app.
      </p>
      <FormInput
        form={start}
        name="password"
        id="two-factor-start-password"
        label="Password to set it up"
        type="password"
        autoComplete="current-password"
      />
      <FormActions form={start} errorId="two-factor-start-error" variant="outline">
        Set up two-factor authentication
      </FormActions>
    </form>
  );
}

export type SecurityEventRow = { id: string; title: string; when: string; detail: string | null };

export function SecurityEventList({ events }: { events: SecurityEventRow[] }) {
  if (events.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        Nothing yet. Sign-ins from new devices and changes to your password, email or two-factor settings will
        be listed here, and emailed to you.
      </p>
    );
  }
  return (
    <ul className="grid gap-2" aria-label="Security events">
      {events.map((event) => (
        <li key={event.id} className="rounded-md border border-border p-3 text-sm">
          <p className="font-medium">{event.title}</p>
          <p className="text-muted-foreground">
            <span className="tabular-nums">{event.when}</span>
            {event.detail ? ` · ${event.detail}` : ""}
          </p>
        </li>
      ))}
    </ul>
  );
}
