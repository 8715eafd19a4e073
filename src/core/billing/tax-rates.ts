/**
 * Standard VAT/GST rates by billing country (ISO 3166-1 alpha-2), as exact percentages. The table is
 * committed with its source and date (`data/tax-rates.json`); a country that is not listed cannot be
 * chosen at checkout.
 */
import table from "./data/tax-rates.json";

export const TAX_RATES_SOURCE: string = table.source;
export const TAX_RATES_DATE: string = table.date;

const RATES: Readonly<Record<string, string>> = table.rates;

/** Where one country's rate comes from, since when it applies, and whether a source confirmed it. */
export interface TaxRateEntry {
  source: string;
  since?: string;
  confirmed: boolean;
  note?: string;
}

export const TAX_RATE_ENTRIES: Readonly<Record<string, TaxRateEntry>> = table.entries;
/** Source id → the publication it names (`TaxRateEntry.source` refers to one). */
export const TAX_RATE_REFERENCES: Readonly<Record<string, string>> = table.references;

/** Country codes with a rate, sorted. */
export const TAX_COUNTRIES: readonly string[] = Object.keys(RATES).sort();

/** The standard rate as a percentage string ("20", "8.1", "0"), or undefined for an unlisted country. */
export function standardTaxRate(country: string): string | undefined {
  const code = country.toUpperCase();
  return Object.hasOwn(RATES, code) ? RATES[code] : undefined;
}
