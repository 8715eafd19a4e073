/**
 * EU VAT identification numbers, checked offline for format and check digit with `jsvat` (each
 * member state's published algorithm). Offline means "well-formed", not "registered": whether the
 * number belongs to a live business is a VIES question this module does not ask.
 *
 * Only the 27 EU member states are accepted: the reverse charge (`reverseChargeApplies`) is an
 * intra-EU rule, and a VAT ID from elsewhere changes nothing on an Abacus invoice.
 */
import {
  austria,
  belgium,
  bulgaria,
  type Country,
  checkVAT,
  croatia,
  cyprus,
  czechRepublic,
  denmark,
  estonia,
  finland,
  france,
  germany,
  greece,
  hungary,
  ireland,
  italy,
  latvia,
  lithuania,
  luxembourg,
  malta,
  netherlands,
  poland,
  portugal,
  romania,
  slovakiaRepublic,
  slovenia,
  spain,
  sweden,
} from "jsvat";

const EU_RULES: readonly Country[] = [
  austria,
  belgium,
  bulgaria,
  croatia,
  cyprus,
  czechRepublic,
  denmark,
  estonia,
  finland,
  france,
  germany,
  greece,
  hungary,
  ireland,
  italy,
  latvia,
  lithuania,
  luxembourg,
  malta,
  netherlands,
  poland,
  portugal,
  romania,
  slovakiaRepublic,
  slovenia,
  spain,
  sweden,
];

/** The EU member states (ISO 3166-1 alpha-2; Greece is `GR`, its VAT prefix `EL`), sorted. */
export const EU_COUNTRIES: readonly string[] = EU_RULES.map((country) => country.codes[0] ?? "").sort();

/** The longest VAT ID input accepted (the longest EU number is 14 characters plus separators). */
export const VAT_ID_MAX_LENGTH = 40;

export function isEuCountry(country: string): boolean {
  return EU_COUNTRIES.includes(country.toUpperCase());
}

/** The VAT prefix of a member state: its ISO code, except Greece (`EL`). */
export function vatPrefix(country: string): string {
  const code = country.toUpperCase();
  return code === "GR" ? "EL" : code;
}

export type VatIdError = "empty" | "too_long" | "no_prefix" | "not_eu" | "format" | "checksum";

export type VatIdCheck =
  | { ok: true; country: string; normalized: string }
  | { ok: false; code: VatIdError; error: string };

function failure(code: VatIdError, error: string): VatIdCheck {
  return { ok: false, code, error };
}

/**
 * Checks a VAT ID as a person types it ("de 136 695 976", "FR-40.303.265.045"): separators (spaces,
 * dashes, dots, slashes) are dropped and letters upper-cased. On success, `country` is the member
 * state's ISO code and `normalized` the number as VIES writes it (prefix + number, no separators).
 * Each failure has its own message, written for the person at the form.
 */
export function validateVatId(raw: string): VatIdCheck {
  if (raw.length > VAT_ID_MAX_LENGTH) {
    return failure("too_long", `A VAT ID has at most ${VAT_ID_MAX_LENGTH} characters.`);
  }
  const compact = raw.toUpperCase().replace(/[\s\-./]+/g, "");
  if (compact === "") return failure("empty", "Enter a VAT ID.");
  if (!/^[A-Z]{2}/.test(compact)) {
    return failure("no_prefix", "Start the VAT ID with its two-letter country prefix, for example DE or FR.");
  }
  const prefix = compact.slice(0, 2);
  if (prefix === "GR") {
    return failure("format", "Greek VAT IDs start with EL, not GR.");
  }
  const result = checkVAT(compact, [...EU_RULES]);
  const country = result.country?.isoCode.short;
  if (!result.isSupportedCountry || country === undefined || vatPrefix(country) !== prefix) {
    return failure("not_eu", `${prefix} is not the prefix of an EU member state's VAT ID.`);
  }
  if (!result.isValidFormat) {
    return failure("format", `This is not the format of a VAT ID from ${result.country?.name ?? country}.`);
  }
  if (!result.isValid) {
    return failure("checksum", "This VAT ID's check digits do not match: look for a typo.");
  }
  return { ok: true, country, normalized: compact };
}

/**
 * The EU reverse charge for a business-to-business sale of services: a customer with a valid VAT ID
 * in a member state other than the seller's pays no VAT, and accounts for it themselves. The seller
 * must be in the EU (`sellerCountry`) for the rule to apply. `customerVatCountry` is the country of
 * a VAT ID `validateVatId` accepted, or null without one.
 */
export function reverseChargeApplies(
  sellerCountry: string | null | undefined,
  customerVatCountry: string | null,
): boolean {
  if (!sellerCountry || !customerVatCountry) return false;
  const seller = sellerCountry.toUpperCase();
  const customer = customerVatCountry.toUpperCase();
  return isEuCountry(seller) && isEuCountry(customer) && seller !== customer;
}

/**
 * Why a VAT ID typed with a billing country (at checkout, in the billing details) cannot be used, or
 * null when it can: it must be valid and from that country.
 */
export function checkVatId(vatId: string | null, country: string): string | null {
  if (!vatId) return null;
  const checked = validateVatId(vatId);
  if (!checked.ok) return checked.error;
  if (checked.country !== country.toUpperCase()) {
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    return `This VAT ID is from ${names.of(checked.country) ?? checked.country}: choose that billing country, or leave the VAT ID out.`;
  }
  return null;
}
