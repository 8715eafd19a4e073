/**
 * Locale formatting with Intl.NumberFormat, held to the ISO 4217 minor units of our table (Intl's own
 * currency digits differ for about 16 currencies, e.g. it shows HUF and IDR without decimals). The
 * amount goes to Intl as a decimal string, never as a Number, so nothing is lost above 2^53; it is
 * already rounded to the minor units, so Intl does not round again.
 */
import type { RoundingMode } from "../rounding";
import { getCurrency } from "./currencies";
import { type Money, roundToMoney, toDecimalString } from "./money";

export interface FormatMoneyOptions {
  /** BCP 47 locale, e.g. "en-US", "de-DE"; default: the runtime's default locale. */
  readonly locale?: string;
  /** How the currency is shown; default "symbol". */
  readonly currencyDisplay?: "symbol" | "narrowSymbol" | "code" | "name";
  /** Group digits (thousands separators); default true. */
  readonly useGrouping?: boolean;
}

type StringFormat = (value: string) => string;
const cache = new Map<string, StringFormat>();

function formatter(currency: string, digits: number, o: FormatMoneyOptions): StringFormat {
  const key = `${o.locale ?? ""}|${currency}|${digits}|${o.currencyDisplay ?? "symbol"}|${o.useGrouping ?? true}`;
  let f = cache.get(key);
  if (!f) {
    const nf = new Intl.NumberFormat(o.locale, {
      style: "currency",
      currency,
      currencyDisplay: o.currencyDisplay ?? "symbol",
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: o.useGrouping ?? true,
    });
    // Intl.NumberFormat#format accepts decimal strings exactly (ES2023; Node 20, current browsers).
    f = nf.format.bind(nf) as unknown as StringFormat;
    if (cache.size > 500) cache.clear();
    cache.set(key, f);
  }
  return f;
}

/** Formats money for display in a locale: formatMoney(money(123456n, "USD"), { locale: "en-US" }) = "$1,234.56". */
export function formatMoney(m: Money, options: FormatMoneyOptions = {}): string {
  const cur = getCurrency(m.currency);
  if (!cur) throw new RangeError(`Unknown currency ${m.currency}`);
  return formatter(cur.code, cur.minorUnits, options)(toDecimalString(m));
}

/** Rounds a decimal string to the currency's minor units with `mode`, then formats it. */
export function formatAmount(
  value: string,
  currency: string,
  mode: RoundingMode = "half-even",
  options: FormatMoneyOptions = {},
): string {
  return formatMoney(roundToMoney(value, currency, mode), options);
}
