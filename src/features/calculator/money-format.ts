import { DISPLAY_LOCALE, formatMoney, type Money, currencyName as nameOf } from "@/core/money";

/** Display locale: fixed, so the server's and the browser's renderings agree. */
export const LOCALE = DISPLAY_LOCALE;

export const fmt = (m: Money) => formatMoney(m, { locale: LOCALE });

export const currencyName = (code: string): string => nameOf(code, LOCALE);
