import { isRoundingMode, type RoundingMode } from "@/core/rounding";

/** A Currency-mode link (`?mode=currency&amount=100&from=EUR&to=USD,GBP,JPY&rounding=half-even`). */
export type CurrencyLink = {
  amount: string | null;
  from: string | null;
  to: string[] | null;
  rounding: RoundingMode | null;
};

const MAX_TARGETS = 50;

/** Reads a Currency-mode link's parameters; anything malformed is left out (the mode's defaults apply). */
export function parseCurrencyLink(params: {
  amount?: string | string[];
  from?: string | string[];
  to?: string | string[];
  rounding?: string | string[];
}): CurrencyLink {
  const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : null);
  const code = (v: string) => (/^[A-Za-z]{3}$/.test(v.trim()) ? v.trim().toUpperCase() : null);
  const amount = one(params.amount)?.trim().slice(0, 100) || null;
  const from = one(params.from);
  const to = one(params.to);
  const rounding = one(params.rounding);
  const targets = to
    ? [...new Set(to.split(",").map(code))].filter((c): c is string => c !== null).slice(0, MAX_TARGETS)
    : null;
  return {
    amount,
    from: from ? code(from) : null,
    to: targets && targets.length > 0 ? targets : null,
    rounding: isRoundingMode(rounding) ? rounding : null,
  };
}
