"use client";

import { SimpleSelect } from "@/components/ui/select";
import { ROUNDING_OPTIONS, type RoundingMode } from "@/core/rounding";

const OPTIONS = ROUNDING_OPTIONS.map((o) => ({ value: o.mode, label: o.label }));

/** The rounding mode picker, labelled from `core/rounding.ts` wherever a person chooses a mode. */
export function RoundingSelect({
  value,
  onValueChange,
  ...props
}: {
  id: string;
  value: RoundingMode | "";
  onValueChange: (mode: RoundingMode) => void;
  name?: string;
  disabled?: boolean;
  className?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}) {
  return <SimpleSelect {...props} value={value} onValueChange={onValueChange} options={OPTIONS} />;
}
