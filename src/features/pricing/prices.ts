import "server-only";
import type { BillingInterval, Plan, PlanId } from "@/core/billing/plans";
import { planPrice, yearlyTerms } from "@/core/billing/pricing";
import {
  currencyName,
  formatMoney,
  getCurrency,
  type Money,
  type RateTable,
  rateCurrencies,
} from "@/core/money";

/** One currency's plan prices, formatted on the server so the page ships no decimal code. */
export interface CurrencyPrices {
  code: string;
  name: string;
  /** Formatted prices ("¥1,880", "€10.36", "$12"), by plan and interval. */
  prices: Record<PlanId, Record<BillingInterval, string>>;
  /** A paid plan's yearly price a month ("≈ ¥1,564" when it does not divide exactly) and its saving. */
  yearly: Record<PlanId, { perMonth: string; saving: string } | null>;
}

const INTERVALS: readonly BillingInterval[] = ["monthly", "yearly"];

/** en-US formatting held to the minor units; a whole amount drops its ".00" ("$12", not "$12.00"). */
function display(m: Money): string {
  const text = formatMoney(m, { locale: "en-US" });
  const minor = getCurrency(m.currency)?.minorUnits ?? 0;
  return minor > 0 && m.amount % 10n ** BigInt(minor) === 0n
    ? text.replace(new RegExp(`\\.0{${minor}}(?!\\d)`), "")
    : text;
}

/**
 * Every plan's price in USD, EUR and each currency of the rate table (`planPrice`: the USD price
 * converted exactly and rounded once to the currency's minor units, half-even). USD comes first, then by code.
 */
export function pricesByCurrency(plans: readonly Plan[], table: RateTable | null): CurrencyPrices[] {
  const codes = table ? rateCurrencies(table).filter((c) => c !== "USD" && getCurrency(c)) : [];
  const result: CurrencyPrices[] = [];
  for (const code of ["USD", ...codes]) {
    const prices = {} as CurrencyPrices["prices"];
    const yearly = {} as CurrencyPrices["yearly"];
    let complete = true;
    for (const plan of plans) {
      prices[plan.id] = {} as Record<BillingInterval, string>;
      const charged = {} as Partial<Record<BillingInterval, Money>>;
      for (const interval of INTERVALS) {
        // The same function checkout charges with, so the two agree to the minor unit.
        const converted = planPrice(plan, interval, code, table);
        if (!converted.ok) {
          complete = false;
          break;
        }
        charged[interval] = converted.value.price;
        prices[plan.id][interval] = display(converted.value.price);
      }
      if (!complete) break;
      const terms = charged.monthly && charged.yearly ? yearlyTerms(charged.monthly, charged.yearly) : null;
      yearly[plan.id] =
        terms && terms.saving.amount > 0n
          ? {
              perMonth: `${terms.perMonthExact ? "" : "≈ "}${display(terms.perMonth)}`,
              saving: display(terms.saving),
            }
          : null;
    }
    if (complete) result.push({ code, name: currencyName(code), prices, yearly });
  }
  return result;
}
