/**
 * ISO 4217 currencies (List One, see `data/README.md` for the source, date and the choice made for
 * codes without minor units). Lookups are case-insensitive on input and return the canonical
 * upper-case code.
 */
import iso from "./data/iso4217.json";

export interface Currency {
  /** Alphabetic code, upper case: "USD". */
  readonly code: string;
  /** Numeric code, three digits with leading zeros: "840", "008". */
  readonly numeric: string;
  /** The name as ISO 4217 lists it: "US Dollar". */
  readonly name: string;
  /** Number of digits after the decimal point of the minor unit: 2 for USD, 0 for JPY, 3 for BHD. */
  readonly minorUnits: number;
}

/** Where the table comes from and when it was published. */
export const ISO4217_SOURCE = { source: iso.source, published: iso.published } as const;

/** Every currency of the table, sorted by code. */
export const CURRENCIES: readonly Currency[] = Object.freeze(
  iso.currencies.map((c) => Object.freeze({ ...c })),
);

const BY_CODE: ReadonlyMap<string, Currency> = new Map(CURRENCIES.map((c) => [c.code, c]));

/** The currency for a code (any letter case), or undefined when the code is not in the table. */
export function getCurrency(code: string): Currency | undefined {
  if (code.length !== 3) return undefined;
  return BY_CODE.get(code.toUpperCase());
}

/** Whether the code (any letter case) is an ISO 4217 currency of the table. */
export function isCurrencyCode(code: string): boolean {
  return getCurrency(code) !== undefined;
}

/** The minor units of a currency; throws a RangeError for a code not in the table (a programming error). */
export function minorUnits(code: string): number {
  const c = getCurrency(code);
  if (!c) throw new RangeError(`Unknown currency ${code}`);
  return c.minorUnits;
}

/** Display locale of currency names and amounts: fixed, so the server's and the browser's renderings agree. */
export const DISPLAY_LOCALE = "en-US";

const displayNames = new Map<string, Intl.DisplayNames | null>();

/**
 * What people call a currency in `locale` ("Japanese Yen", "Chinese Yuan", "South African Rand"),
 * from the locale data (`Intl.DisplayNames`) rather than ISO 4217's register names ("Yen", "Yuan
 * Renminbi", "Rand"). Falls back to the ISO name, then to the code. Every screen that names a
 * currency goes through here.
 */
export function currencyName(code: string, locale: string = DISPLAY_LOCALE): string {
  const upper = code.toUpperCase();
  let names = displayNames.get(locale);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([locale], { type: "currency", fallback: "none" });
    } catch {
      names = null;
    }
    displayNames.set(locale, names);
  }
  let name: string | undefined;
  try {
    name = names?.of(upper);
  } catch {
    name = undefined;
  }
  return name ?? getCurrency(upper)?.name ?? upper;
}
