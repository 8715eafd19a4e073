import type { Metadata } from "next";
import { connection } from "next/server";
import { featureTable, planPriceUsd, plans } from "@/core/billing/plans";
import type { RateTable } from "@/core/money/fx";
import { PricingTable } from "@/features/pricing/pricing-table";
import { type CurrencyPrices, pricesByCurrency } from "@/features/pricing/server";
import { getDb } from "@/server/db/client";
import { loadRatesOrNull, rateTableVersion } from "@/server/fx";

export const metadata: Metadata = {
  title: "Pricing",
  description: "Free, Pro and Team plans for Abacus. A year costs ten months.",
};

export default async function PricingPage({
  searchParams,
}: {
  searchParams: Promise<{ currency?: string; interval?: string }>;
}) {
  // Dynamic: the prices follow the instance's current FX table, read at request time (never at build).
  await connection();
  const { currency, interval } = await searchParams;
  const table = await loadRatesOrNull(getDb());
  const currencies = pricesFor(table);
  const [usd] = currencies; // pricesByCurrency always lists USD, first
  if (!usd) throw new Error("No USD prices");
  const selected = currencies.find((c) => c.code === currency?.toUpperCase()) ?? usd;
  // The FX version these prices come from: the page cache in front of Next.js (src/edge/page-cache.ts)
  // keeps this HTML only while it is still the current version.
  const version = table ? rateTableVersion(table) : undefined;
  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20" data-fx-version={version}>
      <div className="mx-auto mb-12 max-w-2xl text-center">
        <h1 className="text-4xl font-semibold tracking-tight">Simple, exact pricing</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          Start free. Upgrade when your team needs more calls, more history and signed receipts.
        </p>
      </div>
      <PricingTable
        featureTable={featureTable}
        plans={plans.map((plan) => ({
          ...plan,
          prices: { monthly: planPriceUsd(plan, "monthly"), yearly: planPriceUsd(plan, "yearly") },
        }))}
        currencies={codesOf(currencies)}
        selected={selected}
        interval={interval === "yearly" ? "yearly" : "monthly"}
        ratesDate={table?.date ?? null}
      />
    </div>
  );
}

// The FX table is cached per version (server/fx): the same table object until rates change, so the
// prices computed from it are kept with it instead of being recomputed on every request.
const pricesCache = new WeakMap<RateTable, CurrencyPrices[]>();
let usdOnly: CurrencyPrices[] | undefined;
const codesCache = new WeakMap<CurrencyPrices[], string[]>();
function codesOf(prices: CurrencyPrices[]): string[] {
  let codes = codesCache.get(prices);
  if (!codes) {
    codes = prices.map((p) => p.code);
    codesCache.set(prices, codes);
  }
  return codes;
}
function pricesFor(table: RateTable | null): CurrencyPrices[] {
  if (!table) {
    usdOnly ??= pricesByCurrency(plans, null);
    return usdOnly;
  }
  let prices = pricesCache.get(table);
  if (!prices) {
    prices = pricesByCurrency(plans, table);
    pricesCache.set(table, prices);
  }
  return prices;
}
