/**
 * Card details as typed at checkout: number (brand detection and the Luhn check by `card-validator`),
 * expiry (MM/YY, not in the past) and CVC (the brand's length). Pure: the current date is passed in.
 * Only the brand and the last four digits ever leave the request that carries a card.
 */
import cardValidator from "card-validator";

export interface CardInput {
  readonly number: string;
  readonly expiry: string;
  readonly cvc: string;
}

export interface CheckedCard {
  /** Digits only. */
  readonly number: string;
  readonly brand: string;
  readonly last4: string;
  readonly expMonth: number;
  readonly expYear: number;
  readonly cvc: string;
}

export type CardErrors = Partial<Record<"cardNumber" | "expiry" | "cvc", string>>;

/** Digits of a typed card number ("4242 4242-4242 4242" → "4242424242424242"); other text is kept to fail. */
export function cardDigits(text: string): string {
  return text.replace(/[\s-]/g, "");
}

/** The brand's display name ("Visa", "Mastercard", "American Express") from the first digits, or null. */
export function detectBrand(text: string): string | null {
  const digits = cardDigits(text);
  if (!/^\d{1,19}$/.test(digits)) return null;
  const result = cardValidator.number(digits);
  return result.card?.niceType ?? null;
}

/** Groups the digits the way the brand prints them ("3782 822463 10005", "4242 4242 4242 4242"). */
export function formatCardNumber(text: string): string {
  const digits = cardDigits(text).replace(/\D/g, "").slice(0, 19);
  const gaps = cardValidator.number(digits).card?.gaps ?? [4, 8, 12];
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (gaps.includes(i)) out += " ";
    out += digits[i];
  }
  return out;
}

/** Checks a card; returns the checked card or per-field errors. */
export function checkCard(
  input: CardInput,
  now: Date,
): { ok: true; card: CheckedCard } | { ok: false; errors: CardErrors } {
  const errors: CardErrors = {};
  const digits = cardDigits(input.number);
  const numberCheck = /^\d{12,19}$/.test(digits) ? cardValidator.number(digits) : null;
  if (!digits) errors.cardNumber = "Enter the card number.";
  else if (!numberCheck?.card) errors.cardNumber = "This is not a card number we recognise.";
  else if (!numberCheck.isValid) errors.cardNumber = "This card number is not valid: check the digits.";

  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  let expMonth = 0;
  let expYear = 0;
  if (!m) errors.expiry = "Enter the expiry as MM/YY.";
  else {
    expMonth = Number.parseInt(m[1] ?? "", 10);
    const y = Number.parseInt(m[2] ?? "", 10);
    expYear = (m[2] ?? "").length === 2 ? 2000 + y : y;
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (expMonth < 1 || expMonth > 12) errors.expiry = "The month must be 01 to 12.";
    else if (expYear * 12 + expMonth - 1 < thisMonth) errors.expiry = "This card has expired.";
    else if (expYear > now.getUTCFullYear() + 20) errors.expiry = "Check the expiry year.";
  }

  const size = numberCheck?.card?.code.size ?? 3;
  if (!/^\d+$/.test(input.cvc.trim())) errors.cvc = "Enter the security code.";
  else if (input.cvc.trim().length !== size) errors.cvc = `The security code has ${size} digits.`;

  if (errors.cardNumber || errors.expiry || errors.cvc || !numberCheck?.card) return { ok: false, errors };
  return {
    ok: true,
    card: {
      number: digits,
      brand: numberCheck.card.niceType,
      last4: digits.slice(-4),
      expMonth,
      expYear,
      cvc: input.cvc.trim(),
    },
  };
}
