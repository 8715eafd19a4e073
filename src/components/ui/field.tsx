import type * as React from "react";
import { Label } from "./input";

/**
 * A labelled form field with an optional hint and error. The error is tied to the control with
 * aria-describedby, and space for it is always reserved so that showing it shifts nothing: one line,
 * or `errorLines={2}` where a message may wrap (a narrow column, a message that names the input).
 * The field keeps to the top of its grid cell, so a neighbour's taller error moves nothing here.
 */
export function Field({
  id,
  label,
  hint,
  error,
  errorLines = 1,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  errorLines?: 1 | 2;
  children: (props: { id: string; "aria-invalid"?: boolean; "aria-describedby"?: string }) => React.ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="grid min-w-0 content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy || undefined,
      })}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <p
        id={`${id}-error`}
        className={`${errorLines === 2 ? "min-h-10" : "min-h-5"} text-sm text-destructive`}
        aria-live="polite"
      >
        {error ?? ""}
      </p>
    </div>
  );
}
