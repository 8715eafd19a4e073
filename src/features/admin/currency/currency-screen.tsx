import "server-only";
import Link from "next/link";
import { CURRENCIES, currencyName } from "@/core/money/currencies";
import { routeLabel } from "@/core/routes";
import type { Db } from "@/server/db/client";
import { listRateDates, loadCurrentRates, loadRatesOn, loadRateTable } from "@/server/fx";
import { AdminPage } from "../admin-nav";
import type { SearchParams } from "../search-params";
import { Playground } from "./playground";
import { RatesImport, RatesTable } from "./rates-panel";
import { ConformanceSuite } from "./suite";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** What /admin/currency-test shows, loaded by its page: the rates now, their dates, one date's set. */
export async function loadCurrencyScreen(db: Db, params: SearchParams) {
  const [table, current, dates] = await Promise.all([
    loadRateTable(db),
    loadCurrentRates(db),
    listRateDates(db),
  ]);
  const chosen = one(params.date);
  const date = dates.find((d) => d.date === chosen)?.date;
  const history = date ? await loadRatesOn(db, date) : [];
  return { table, current, dates, date, history };
}

/** /admin/currency-test: conformance suite, FX rates (view by date, edit, import) and a playground. */
export function CurrencyScreen({
  data: { table, current, dates, date, history },
}: {
  data: Awaited<ReturnType<typeof loadCurrencyScreen>>;
}) {
  const today = new Date().toISOString().slice(0, 10);
  return (
    <AdminPage title={routeLabel("/admin/currency-test")}>
      <section aria-labelledby="fx" className="grid min-w-0 gap-4">
        <div className="grid gap-1">
          <h2 id="fx" className="text-xl font-semibold">
            FX rates
          </h2>
          <p className="text-sm text-muted-foreground">
            Units of each currency per 1 EUR, exact decimals. Prices and conversions use the current set.
          </p>
        </div>
        <nav aria-label="Rates by date" className="flex flex-wrap gap-1 text-sm">
          <Link
            href="?"
            scroll={false}
            aria-current={!date ? "true" : undefined}
            className={`rounded-md px-2.5 py-1 ${!date ? "bg-accent text-accent-foreground" : "hover:bg-muted text-muted-foreground"}`}
          >
            Current ({current.length})
          </Link>
          {dates.slice(0, 12).map((d) => (
            <Link
              key={d.date}
              href={`?date=${d.date}`}
              scroll={false}
              aria-current={date === d.date ? "true" : undefined}
              className={`rounded-md px-2.5 py-1 tabular-nums ${date === d.date ? "bg-accent text-accent-foreground" : "hover:bg-muted text-muted-foreground"}`}
            >
              {d.date}
            </Link>
          ))}
        </nav>
        {date ? (
          <RatesTable
            rows={history.map((h) => ({ currency: h.currency, rate: h.rate, date, source: h.source }))}
            editable={false}
            today={today}
          />
        ) : (
          <RatesTable
            rows={current.map((c) => ({ currency: c.currency, rate: c.rate, date: c.date }))}
            editable
            today={today}
          />
        )}
        <h3 className="text-base font-semibold">Import</h3>
        <RatesImport />
      </section>

      <section aria-labelledby="suite" className="grid min-w-0 gap-4">
        <h2 id="suite" className="text-xl font-semibold">
          Conformance suite
        </h2>
        <ConformanceSuite table={table} />
      </section>

      <section aria-labelledby="playground" className="grid min-w-0 gap-4">
        <h2 id="playground" className="text-xl font-semibold">
          Formatting playground
        </h2>
        <Playground names={Object.fromEntries(CURRENCIES.map((c) => [c.code, currencyName(c.code)]))} />
      </section>
    </AdminPage>
  );
}
