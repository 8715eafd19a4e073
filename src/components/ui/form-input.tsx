"use client";

import type * as React from "react";
import { Field } from "./field";
import { Input } from "./text-input";

type BoundForm<K extends string> = {
  field: (name: K) => {
    name: string;
    value: string;
    onChange: (event: { target: { value: string } }) => void;
  };
  fieldErrors: Record<string, string>;
};

/**
 * A labelled text input bound to a `useActionForm` field: its value, its change handler and its
 * error, tied together by `id` (which the form's focus-on-error finds as `${idPrefix}-${name}`).
 */
export function FormInput<K extends string>({
  form,
  name,
  id,
  label,
  hint,
  errorLines,
  ...input
}: {
  form: BoundForm<K>;
  name: K;
  id: string;
  label: string;
  hint?: string;
  errorLines?: 1 | 2;
} & Omit<React.ComponentProps<"input">, "form" | "name" | "value" | "onChange" | "id">) {
  return (
    <Field id={id} label={label} hint={hint} error={form.fieldErrors[name]} errorLines={errorLines}>
      {(props) => <Input {...props} {...form.field(name)} {...input} />}
    </Field>
  );
}
