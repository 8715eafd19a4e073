import { Loader2 } from "lucide-react";
import type * as React from "react";
import { Button } from "./button";

export function SubmitButton({
  pending,
  children,
  pendingLabel,
  ...props
}: React.ComponentProps<typeof Button> & { pending: boolean; pendingLabel?: string }) {
  return (
    <Button type="submit" disabled={pending || props.disabled} aria-busy={pending || undefined} {...props}>
      {pending ? <Loader2 className="animate-spin" aria-hidden /> : null}
      {pending && pendingLabel ? pendingLabel : children}
    </Button>
  );
}

export function FormError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} role="status" className="min-h-5 text-sm text-destructive">
      {message}
    </p>
  );
}

/**
 * The end of a form that submits to a server action: its form-level error (space reserved), then
 * its submit button, busy while the action runs.
 */
export function FormActions({
  form,
  errorId,
  children,
  ...button
}: { form: { pending: boolean; formError: string }; errorId: string } & Omit<
  React.ComponentProps<typeof SubmitButton>,
  "form" | "pending"
>) {
  return (
    <>
      <FormError id={errorId} message={form.formError} />
      <div>
        <SubmitButton pending={form.pending} {...button}>
          {children}
        </SubmitButton>
      </div>
    </>
  );
}
