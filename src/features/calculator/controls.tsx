import type * as React from "react";
import { ChoiceInput } from "@/components/ui/choice-input";
import { cn } from "@/lib/utils";

/** A small radio group drawn as a segmented control. */
export function Segmented<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  className,
}: {
  legend: string;
  name: string;
  value: T;
  options: readonly { readonly value: T; readonly label: string }[];
  onChange: (value: T) => void;
  className?: string;
}) {
  return (
    <fieldset className={cn("grid gap-2", className)}>
      <legend className="mb-2 text-sm font-medium leading-none">{legend}</legend>
      <div className="inline-flex h-10 w-fit rounded-md border border-border bg-muted p-1">
        {options.map((o) => (
          <label
            key={o.value}
            className={cn(
              "flex cursor-pointer items-center rounded-sm px-3 text-sm font-medium text-muted-foreground has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
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

/**
 * A formatted amount split at its decimal point, so that a right-aligned column of them lines up on the
 * point: the fraction (with the point) sits in a box `fractionWidth` characters wide.
 */
export function AlignedAmount({
  text,
  fractionWidth,
  className,
  ...props
}: { text: string; fractionWidth: number } & React.ComponentProps<"span">) {
  // en-US formatting: "." is the decimal point, "," groups; the point is followed by digits only.
  const match = /^(.*?\d)(\.\d+)(.*)$/.exec(text);
  const whole = match ? match[1] : text;
  const fraction = match ? `${match[2]}${match[3]}` : "";
  return (
    <span className={cn("tabular whitespace-nowrap", className)} {...props}>
      {whole}
      <span className="inline-block text-left" style={{ width: `${fractionWidth}ch` }}>
        {fraction}
      </span>
    </span>
  );
}

/** The width (in ch) the fraction part of an amount with `minorUnits` decimals needs, point included. */
export function fractionWidthFor(minorUnits: readonly number[]): number {
  const most = Math.max(0, ...minorUnits);
  return most === 0 ? 0 : most + 1;
}
