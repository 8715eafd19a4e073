/**
 * The price of a plan in any currency, and an order's net / tax / total. Pure and exact: the USD base
 * price (a decimal string) is converted with the rate table as one fraction and rounded once to the
 * currency's minor units (half-even); tax is computed on minor units and the parts always add up.
 * The pricing page and checkout both call `planPrice`, so they agree to the last minor unit.
 */
import type { RoundingMode } from "../decimal/rounding";
import { convert, crossRate, type Money, type MoneyResult, parseMoney, type RateTable } from "../money";
import { roundDiv } from "../money/rational";
import { addTax, extractTax } from "../money/tax";
import { type CouponTerms, couponDiscount } from "./coupon";
import { type BillingInterval, type Plan, planPriceUsd, YEARLY_MONTHS } from "./plans";
import { standardTaxRate } from "./tax-rates";
import { reverseChargeApplies, validateVatId } from "./vat";
import type { TaxTreatment } from "./vocabulary";

export const PRICE_ROUNDING: RoundingMode = "half-even";

export interface PlanPrice {
  /** The price in the chosen currency, rounded once to its minor units. */
  readonly price: Money;
  /** The USD base price it was converted from ("12.00"). */
  readonly usd: string;
  /** USD → currency cross rate used (34 significant digits, for display and the record); "1" for USD. */
  readonly fxRate: string;
  /** The rate table's date (YYYY-MM-DD); for USD the table's date too. */
  readonly fxDate: string;
}

export function planPrice(
  plan: Plan,
  interval: BillingInterval,
  currency: string,
  table: RateTable | null,
): MoneyResult<PlanPrice> {
  const usdText = planPriceUsd(plan, interval);
  const usd = parseMoney(usdText, "USD");
  if (!usd.ok) return usd;
  const code = currency.toUpperCase();
  if (code === "USD") {
    return { ok: true, value: { price: usd.value, usd: usdText, fxRate: "1", fxDate: table?.date ?? "" } };
  }
  if (!table) return { ok: false, error: { code: "no_rate", message: "No exchange rates are loaded" } };
  const converted = convert(usd.value, code, table, PRICE_ROUNDING);
  if (!converted.ok) return converted;
  const rate = crossRate(table, "USD", code);
  if (!rate.ok) return rate;
  return {
    ok: true,
    value: { price: converted.value, usd: usdText, fxRate: rate.value, fxDate: table.date },
  };
}

/** What a yearly price means a month, and what it saves against twelve monthly payments. */
export interface YearlyTerms {
  /** The yearly price over 12, rounded once to minor units (half-even). */
  readonly perMonth: Money;
  /** Whether `perMonth` is exact (the yearly price divides by 12 in minor units). */
  readonly perMonthExact: boolean;
  /** 12 monthly prices minus the yearly price: both are amounts charged, so this is exact. */
  readonly saving: Money;
}

/** Both prices as charged in one currency (from `planPrice`), so the figures match checkout. */
export function yearlyTerms(monthly: Money, yearly: Money): YearlyTerms {
  if (monthly.currency !== yearly.currency) {
    throw new RangeError(`Currency mismatch: ${monthly.currency} and ${yearly.currency}`);
  }
  const currency = yearly.currency;
  return {
    perMonth: { amount: roundDiv(yearly.amount, 12n, PRICE_ROUNDING), currency },
    perMonthExact: yearly.amount % 12n === 0n,
    saving: { amount: monthly.amount * 12n - yearly.amount, currency },
  };
}

/** Months a yearly subscription is priced at (the rest of the year is free). */
export const YEARLY_FREE_MONTHS = 12 - YEARLY_MONTHS;

/**
 * How a price relates to tax: `exclusive` (the price is before tax; tax is added on top) or `inclusive`
 * (the price already contains the tax; the tax is extracted from it).
 */
export type { TaxTreatment };

export interface OrderAmounts {
  readonly net: Money;
  readonly tax: Money;
  readonly total: Money;
  /** The tax rate applied, a percentage string ("20", "8.1"). */
  readonly taxRate: string;
  readonly treatment: TaxTreatment;
}

/** Net, tax and total for a price at a percentage rate; net + tax = total exactly. */
export function applyTax(price: Money, ratePercent: string, treatment: TaxTreatment): OrderAmounts {
  const b =
    treatment === "exclusive"
      ? addTax(price, `${ratePercent}%`, PRICE_ROUNDING)
      : extractTax(price, `${ratePercent}%`, PRICE_ROUNDING);
  return { net: b.net, tax: b.tax, total: b.gross, taxRate: ratePercent, treatment };
}

export interface Quote extends OrderAmounts {
  readonly plan: Plan;
  readonly interval: BillingInterval;
  readonly country: string;
  readonly usd: string;
  readonly fxRate: string;
  readonly fxDate: string;
  /** The plan's price before the discount and tax (net of tax for an inclusive price). */
  readonly subtotal: Money;
  /** The coupon's discount (zero without one): subtotal − discount = net. */
  readonly discount: Money;
  /** The coupon applied, if any. */
  readonly coupon: { readonly id: string; readonly code: string } | null;
  /** 0 % tax: an EU business customer in another member state than the seller (reverse charge). */
  readonly reverseCharge: boolean;
  /** The customer's VAT ID as validated and normalized ("DE136695976"), or null. */
  readonly vatId: string | null;
}

/**
 * The whole order for a plan, interval, currency and billing country. Abacus's list prices are before
 * tax (the pricing page says so), so checkout uses the `exclusive` treatment unless told otherwise.
 *
 * A coupon's discount comes off the price before tax (see `couponDiscount`), and tax is computed on
 * what is left. With a VAT ID that `validateVatId` accepts, from the billing country, the order is a
 * reverse charge (0 %) when the billing country and `sellerCountry` are two different EU member
 * states. A VAT ID that does not validate (forms refuse those first) is kept off the quote.
 */
export function quoteOrder(input: {
  plan: Plan;
  interval: BillingInterval;
  currency: string;
  country: string;
  table: RateTable | null;
  treatment?: TaxTreatment;
  coupon?: CouponTerms | null;
  vatId?: string | null;
  sellerCountry?: string | null;
}): MoneyResult<Quote> {
  const country = input.country.toUpperCase();
  const standard = standardTaxRate(country);
  if (standard === undefined) {
    return {
      ok: false,
      error: { code: "invalid_amount", message: `No tax rate is known for country ${input.country}` },
    };
  }
  const price = planPrice(input.plan, input.interval, input.currency, input.table);
  if (!price.ok) return price;
  const vat = input.vatId ? validateVatId(input.vatId) : null;
  const vatId = vat?.ok ? vat.normalized : null;
  const reverseCharge =
    vat?.ok === true && vat.country === country && reverseChargeApplies(input.sellerCountry, country);
  const rate = reverseCharge ? "0" : standard;
  const treatment = input.treatment ?? "exclusive";
  const list = price.value.price;
  const coupon = input.coupon ?? null;
  const discount = coupon
    ? couponDiscount(coupon, list, PRICE_ROUNDING)
    : { amount: 0n, currency: list.currency };
  const amounts = applyTax(
    { amount: list.amount - discount.amount, currency: list.currency },
    rate,
    treatment,
  );
  // An inclusive price's discount comes off the price with tax; the subtotal is then what the net
  // was before the discount, so that subtotal − discount = net still holds.
  const subtotal =
    treatment === "exclusive"
      ? list
      : { amount: amounts.net.amount + discount.amount, currency: list.currency };
  return {
    ok: true,
    value: {
      ...amounts,
      plan: input.plan,
      interval: input.interval,
      country,
      usd: price.value.usd,
      fxRate: price.value.fxRate,
      fxDate: price.value.fxDate,
      subtotal,
      discount,
      coupon: coupon && discount.amount > 0n ? { id: coupon.id, code: coupon.code } : null,
      reverseCharge,
      vatId,
    },
  };
}
