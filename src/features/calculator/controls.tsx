import type * as React from "react";
import { cn } from "@/lib/utils";

export { Segmented } from "@/components/ui/segmented";

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
