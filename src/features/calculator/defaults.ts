import type { RoundingMode } from "@/core/rounding";

/**
 * What a signed-in member's calculator starts from: the active organization's default currency,
 * rounding mode and precision. A saved calculation's link (its URL parameters) overrides them.
 */
export type CalculatorDefaults = { defaultCurrency: string; roundingMode: RoundingMode; precision: number };
