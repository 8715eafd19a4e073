import "server-only";
import { type BillingInterval, getPlan, type Plan } from "@/core/billing/plans";
import { applyTax, planPrice, type Quote } from "@/core/billing/pricing";
import { standardTaxRate, TAX_COUNTRIES, TAX_RATES_DATE } from "@/core/billing/tax-rates";
import {
  currencyName,
  formatMoney,
  getCurrency,
  type Money,
  type RateTable,
  rateCurrencies,
} from "@/core/money";

export interface CountryQuote {
  code: string;
  name: string;
  rate: string;
  net: string;
  tax: string;
  total: string;
}

/** Everything the checkout form shows, computed and formatted on the server (no money code ships). */
export interface CheckoutQuote {
  plan: { id: "pro" | "team"; name: string; tagline: string };
  interval: BillingInterval;
  currency: string;
  currencyName: string;
  price: string;
  usd: string;
  fxRate: string;
  fxDate: string;
  taxDate: string;
  countries: CountryQuote[];
  currencies: { code: string; name: string }[];
}

const fmt = (m: Money) => formatMoney(m, { locale: "en-US" });

export function checkoutCurrencies(table: RateTable | null): { code: string; name: string }[] {
  const codes = table ? rateCurrencies(table).filter((c) => c !== "USD" && getCurrency(c)) : [];
  return ["USD", ...codes].map((code) => ({ code, name: currencyName(code) }));
}

export function parseSelection(params: { plan?: string; interval?: string; currency?: string }) {
  const plan = getPlan(params.plan ?? "pro");
  return {
    plan:
      plan && plan.id !== "free"
        ? (plan as Plan & { id: "pro" | "team" })
        : (getPlan("pro") as Plan & { id: "pro" }),
    interval: (params.interval === "yearly" ? "yearly" : "monthly") as BillingInterval,
    currency: (params.currency ?? "USD").toUpperCase(),
  };
}

export function buildQuote(
  selection: ReturnType<typeof parseSelection>,
  table: RateTable | null,
): CheckoutQuote | null {
  const currencies = checkoutCurrencies(table);
  const currency = currencies.some((c) => c.code === selection.currency) ? selection.currency : "USD";
  const price = planPrice(selection.plan, selection.interval, currency, table);
  if (!price.ok) return null;
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  const countries = TAX_COUNTRIES.map((code) => {
    const rate = standardTaxRate(code) ?? "0";
    const a = applyTax(price.value.price, rate, "exclusive");
    return {
      code,
      name: names.of(code) ?? code,
      rate,
      net: fmt(a.net),
      tax: fmt(a.tax),
      total: fmt(a.total),
    };
  }).sort((a, b) => a.name.localeCompare(b.name, "en"));
  return {
    plan: { id: selection.plan.id, name: selection.plan.name, tagline: selection.plan.tagline },
    interval: selection.interval,
    currency,
    currencyName: currencyName(currency),
    price: fmt(price.value.price),
    usd: price.value.usd,
    fxRate: price.value.fxRate,
    fxDate: price.value.fxDate,
    taxDate: TAX_RATES_DATE,
    countries,
    currencies,
  };
}

/** The order with a promotion code applied, as the checkout's summary shows it before paying. */
export interface CheckoutPreview {
  plan: "pro" | "team";
  interval: BillingInterval;
  currency: string;
  country: string;
  /** The code as redeemed (upper case). */
  code: string;
  subtotal: string;
  /** The discount, negative ("−€9.40"). */
  discount: string;
  /** "DE 19%", or "reverse charge" with a VAT ID from another EU member state. */
  taxLabel: string;
  tax: string;
  total: string;
}

/** Formats a quote priced with a coupon (see `previewCheckout`). */
export function previewOf(quote: Quote, code: string): CheckoutPreview {
  return {
    plan: quote.plan.id as "pro" | "team",
    interval: quote.interval,
    currency: quote.total.currency,
    country: quote.country,
    code,
    subtotal: fmt(quote.subtotal),
    discount: `−${fmt(quote.discount)}`,
    taxLabel: quote.reverseCharge ? "reverse charge" : `${quote.country} ${quote.taxRate}%`,
    tax: fmt(quote.tax),
    total: fmt(quote.total),
  };
}
