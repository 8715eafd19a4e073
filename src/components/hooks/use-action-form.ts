"use client";

import { type FormEvent, useState, useTransition } from "react";
import type { Failure } from "@/core/result";
import { callAction } from "./call-action";
import { notify } from "./notify";

type Outcome = { ok: true } | Failure;

/**
 * State for a form that submits to a server action: controlled values (so nothing typed is lost on
 * failure), per-field errors, a form-level error, a pending flag, and a toast for success (errors are
 * shown in the form, see `submit`).
 */
export function useActionForm<V extends Record<string, string>, R extends Outcome>(
  initial: V,
  run: (values: V) => Promise<R>,
  options: {
    success?: string | ((result: Extract<R, { ok: true }>) => string | null);
    onSuccess?: (result: Extract<R, { ok: true }>) => void;
    resetOnSuccess?: boolean;
    idPrefix?: string;
  } = {},
) {
  const [values, setValues] = useState<V>(initial);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState("");
  const [pending, startTransition] = useTransition();

  const field = (name: keyof V & string) => ({
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  function submit(event?: FormEvent) {
    event?.preventDefault();
    startTransition(async () => {
      const result = await callAction(() => run(values));
      if (!result) return;
      if (result.ok) {
        const ok = result as Extract<R, { ok: true }>;
        setFieldErrors({});
        setFormError("");
        if (options.resetOnSuccess) setValues(initial);
        const message = typeof options.success === "function" ? options.success(ok) : options.success;
        if (message) notify.success(message);
        options.onSuccess?.(ok);
        return;
      }
      const failure = result as Failure;
      const errors = failure.fieldErrors ?? {};
      // Feedback policy: a field's error is shown once, beside the field, and focus moves to the
      // first invalid field; only an error that belongs to no visible field becomes the form's
      // summary (rendered by <FormError>). Failures of a form are never also toasted.
      const first = Object.keys(errors)
        .map((name) => (options.idPrefix ? document.getElementById(`${options.idPrefix}-${name}`) : null))
        .find((element) => element !== null);
      setFieldErrors(errors);
      setFormError(first ? "" : Object.values(errors).join(" ") || failure.error);
      first?.focus();
    });
  }

  return { values, setValues, field, fieldErrors, formError, pending, submit };
}
