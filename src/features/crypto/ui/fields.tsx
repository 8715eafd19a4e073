"use client";

import type * as React from "react";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";
import { cn } from "@/lib/utils";
import { type Option, OUTPUT_OPTIONS } from "../constants";
import type { OutputEncoding } from "../op-base";

export function SelectField({
  id,
  label,
  value,
  onChange,
  options,
  groups,
  hint,
  error,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options?: readonly Option[];
  groups?: readonly { label: string; options: readonly Option[] }[];
  hint?: string;
  error?: string | undefined;
  disabled?: boolean;
}) {
  return (
    <Field id={id} label={label} {...(hint ? { hint } : {})} {...(error ? { error } : {})}>
      {(props) => (
        <SimpleSelect
          {...props}
          value={value}
          disabled={disabled}
          onValueChange={onChange}
          options={options ?? groups?.flatMap((g) => g.options) ?? []}
          {...(groups ? { groups } : {})}
        />
      )}
    </Field>
  );
}

/** How a binary result is shown (hex, base64, …): the same choice in every tool that gives bytes. */
export function OutputField({
  id,
  label = "Output",
  value,
  onChange,
}: {
  id: string;
  label?: string;
  value: OutputEncoding;
  onChange: (value: OutputEncoding) => void;
}) {
  return (
    <SelectField
      id={id}
      label={label}
      value={value}
      onChange={(v) => onChange(v as OutputEncoding)}
      options={OUTPUT_OPTIONS}
    />
  );
}

export function TextField({
  id,
  label,
  value,
  onChange,
  hint,
  error,
  off,
  type = "text",
  ...rest
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string | undefined;
  /**
   * Set when the field does not apply to the other choices made: it is disabled and empty, and shows
   * this text instead (what decides the value then). What was typed comes back when it applies again.
   */
  off?: string | undefined;
} & Omit<React.ComponentProps<"input">, "id" | "value" | "onChange">) {
  return (
    <Field id={id} label={label} {...(hint ? { hint } : {})} {...(error ? { error } : {})}>
      {(props) => (
        <Input
          {...props}
          {...rest}
          type={type}
          value={off === undefined ? value : ""}
          {...(off === undefined ? {} : { disabled: true, placeholder: off })}
          onChange={(e) => onChange(e.target.value)}
          className={cn(type === "number" && "tabular-nums", rest.className)}
        />
      )}
    </Field>
  );
}
