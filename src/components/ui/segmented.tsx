"use client";

import type * as React from "react";
import { cn } from "@/lib/utils";
import { ChoiceInput } from "./choice-input";

/**
 * A small radio group drawn as a segmented control (a billing interval, a notation): real radio
 * buttons, so arrows move the choice and a screen reader announces "1 of 2"; the focused option
 * shows the focus ring. `legend` names the group; `hideLegend` keeps it for screen readers only.
 */
export function Segmented<T extends string>({
  legend,
  hideLegend = false,
  name,
  value,
  options,
  onChange,
  className,
}: {
  legend: string;
  hideLegend?: boolean;
  name: string;
  value: T;
  options: readonly { readonly value: T; readonly label: React.ReactNode }[];
  onChange: (value: T) => void;
  className?: string;
}) {
  return (
    <fieldset className={cn("grid gap-2", className)}>
      <legend className={hideLegend ? "sr-only" : "mb-2 text-sm font-medium leading-none"}>{legend}</legend>
      <div className="inline-flex h-10 w-fit max-w-full rounded-md border border-border bg-muted p-1">
        {options.map((o) => (
          <label
            key={o.value}
            className={cn(
              "flex cursor-pointer items-center whitespace-nowrap rounded-sm px-3 text-sm font-medium text-muted-foreground has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
              value === o.value && "bg-background text-foreground shadow-sm",
            )}
          >
            <ChoiceInput
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="sr-only"
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
