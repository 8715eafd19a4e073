"use client";

import { MailCheck } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { useActionForm } from "@/components/hooks/use-action-form";
import { refreshViewer } from "@/components/shell/viewer-store";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { confirmCodeAction, confirmLinkAction, openLocalMailAction, resendCodeAction } from "./actions";
import { AuthCard } from "./auth-card";
import type { MailHint } from "./confirmation";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/** Where the email is, said plainly for this instance. */
function WhereIsTheMail({ hint }: { hint: MailHint }) {
  const [mail, setMail] = useState<{ subject: string; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  if (hint === "delivered") {
    return (
      <p className="text-sm text-muted-foreground">
        No email after a minute? Check your spam folder, or send a new code.
      </p>
    );
  }
  if (hint === "outbox") {
    return (
      <p className="text-sm text-muted-foreground" data-testid="mail-hint">
        This instance has no mail server: its messages wait in the outbox, which the instance's administrators
        read at <span className="font-mono">/admin/outbox</span>. Ask them for your code.
      </p>
    );
  }
  return (
    <div
      className="grid gap-2 rounded-md border border-border bg-muted/40 p-3 text-sm"
      data-testid="mail-hint"
    >
      <p>
        <span className="font-medium">Running Abacus on your own machine?</span> It has no mail server, so the
        code and link are printed in the terminal where you started it (
        <span className="font-mono">npm start</span> or <span className="font-mono">npm run dev</span>), on a
        line starting with <span className="font-mono">[mail]</span>.
      </p>
      {hint === "terminal-dev" ? (
        mail ? (
          <div className="grid gap-1">
            <p className="font-medium">{mail.subject}</p>
            <pre className="whitespace-pre-wrap break-all font-mono text-xs text-muted-foreground">
              {mail.text}
            </pre>
          </div>
        ) : (
          <div>
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={pending}
              onClick={() =>
                startTransition(async () => {
                  const result = await callAction(() => openLocalMailAction({}));
                  if (!result) return;
                  if (!result.ok) return notify.error(result.error);
                  setMail(result.data);
                })
              }
            >
              Open the email here (development)
            </Button>
          </div>
        )
      ) : null}
    </div>
  );
}

/** "Check your email": the 6-digit code, typed in the browser that signed up. */
export function ConfirmCodeForm({
  email,
  redirectUrl,
  hint,
}: {
  email: string;
  redirectUrl?: string;
  hint: MailHint;
}) {
  const router = useRouter();
  const [sending, startSending] = useTransition();
  const form = useActionForm({ code: "" }, (values) => confirmCodeAction({ ...values, redirectUrl }), {
    idPrefix: "confirm",
    success: (result) => result.message ?? "Email confirmed.",
    onSuccess: (result) => {
      void refreshViewer();
      router.replace(result.data.redirectTo);
      router.refresh();
    },
  });
  return (
    <div className="grid gap-4">
      <div className="flex items-start gap-3">
        <MailCheck className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden="true" />
        <p className="text-sm text-muted-foreground">
          We sent a 6-digit code and a link to{" "}
          <span className="font-medium wrap-anywhere text-foreground">{email}</span>. Type the code here, or
          open the link. Both work for 24 hours.
        </p>
      </div>
      <form noValidate onSubmit={form.submit} className="grid gap-1">
        <Field id="confirm-code" label="Confirmation code" error={form.fieldErrors.code}>
          {(props) => (
            <Input
              {...props}
              {...form.field("code")}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={20}
              className="font-mono tabular-nums tracking-widest"
              autoFocus
            />
          )}
        </Field>
        <FormError id="confirm-error" message={form.formError} />
        <SubmitButton pending={form.pending} pendingLabel="Checking…" className="mt-2 w-full">
          Confirm
        </SubmitButton>
      </form>
      <WhereIsTheMail hint={hint} />
      <p className="text-sm text-muted-foreground">
        <button
          type="button"
          className={linkClass}
          disabled={sending}
          onClick={() =>
            startSending(async () => {
              const result = await callAction(() => resendCodeAction({}));
              if (!result) return;
              if (!result.ok) return notify.error(result.error);
              notify.success(result.message ?? "We sent a new code.");
            })
          }
        >
          Send a new code
        </button>{" "}
        or{" "}
        <Link href="/sign-up" className={linkClass}>
          use another address
        </Link>
        .
      </p>
    </div>
  );
}

/**
 * The page an emailed link opens: one click confirms (a mail scanner's GET does nothing). Signed in
 * as somebody else, it says so first, and confirming leaves that session as it is. The whole card is
 * here: confirming refreshes the page, whose link is then used, and the outcome must stay on screen.
 */
export function ConfirmLinkCard({
  token,
  email,
  signedInAs,
}: {
  token: string;
  /** The address the link is for; null when the link is broken, used or expired. */
  email: string | null;
  signedInAs: string | null;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState("");
  const [done, setDone] = useState<{
    email: string;
    other: string | null;
    signedIn: boolean;
    redirectTo: string;
    already: boolean;
  } | null>(null);
  // Somebody signed in here has no use for a "Sign in" link.
  const footer = signedInAs ? null : (
    <Link href="/sign-in" className={linkClass}>
      Sign in
    </Link>
  );

  if (done) {
    return (
      <AuthCard
        title={done.already ? "Already confirmed" : "Email confirmed"}
        description={`${done.email} ${done.already ? "was confirmed before." : "is confirmed."}`}
        footer={footer}
      >
        <div className="grid gap-4" role="status">
          <p className="text-sm text-muted-foreground">
            {done.signedIn
              ? "You are signed in."
              : done.other
                ? `You are still signed in as ${done.other}.`
                : "Sign in with it to continue."}
          </p>
          <div>
            {done.signedIn ? (
              <Button
                onClick={() => {
                  router.replace(done.redirectTo);
                  router.refresh();
                }}
              >
                Continue
              </Button>
            ) : done.other ? (
              <Button asChild variant="outline">
                <Link href="/dashboard">Back to your dashboard</Link>
              </Button>
            ) : (
              <Button asChild>
                <Link href={`/sign-in?redirect_url=${encodeURIComponent(done.redirectTo)}`}>Sign in</Link>
              </Button>
            )}
          </div>
        </div>
      </AuthCard>
    );
  }

  if (!email) {
    return (
      <AuthCard
        title="This link has expired"
        description="It was already used, or it is older than 24 hours. If you confirmed your address, sign in; otherwise sign up again for a new code."
        footer={footer}
      >
        <Link href="/sign-up" className={linkClass}>
          Sign up again
        </Link>
      </AuthCard>
    );
  }

  const other = signedInAs !== null && signedInAs.toLowerCase() !== email.toLowerCase() ? signedInAs : null;
  return (
    <AuthCard
      title="Confirm your email address"
      description="One click confirms the address."
      footer={footer}
    >
      <div className="grid min-w-0 gap-4">
        {other ? (
          <p className="rounded-md border border-amber-500/60 bg-amber-500/10 p-3 text-sm" role="note">
            You are signed in as <span className="font-medium wrap-anywhere">{other}</span>. This link is for
            another account. Confirming it does not sign you out, and does not sign you in to that account.
          </p>
        ) : null}
        <p className="text-sm text-muted-foreground">
          Confirm <span className="font-medium wrap-anywhere text-foreground">{email}</span> as the address of
          its Abacus account?
        </p>
        {error ? (
          <p className="text-sm text-destructive" role="alert">
            {error}
          </p>
        ) : null}
        <div>
          <Button
            disabled={pending}
            onClick={() =>
              startTransition(async () => {
                const result = await callAction(() => confirmLinkAction({ token }));
                if (!result) return;
                if (!result.ok) return setError(result.error);
                if (result.data.signedIn) void refreshViewer();
                setDone({
                  email,
                  other,
                  signedIn: result.data.signedIn,
                  redirectTo: result.data.redirectTo,
                  already: result.data.alreadyConfirmed,
                });
              })
            }
          >
            Confirm email address
          </Button>
        </div>
      </div>
    </AuthCard>
  );
}
