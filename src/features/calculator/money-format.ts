import { formatMoney, getCurrency, type Money } from "@/core/money";

/** Display locale: fixed, so the server's and the browser's renderings agree. */
export const LOCALE = "en-US";

export const fmt = (m: Money) => formatMoney(m, { locale: LOCALE });

export function currencyName(code: string): string {
  return getCurrency(code)?.name ?? code;
}
