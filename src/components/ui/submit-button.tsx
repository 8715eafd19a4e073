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
