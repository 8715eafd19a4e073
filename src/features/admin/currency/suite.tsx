"use client";

import { useEffect, useState } from "react";
import { CHECK_GROUPS, type Check, runCurrencySuite } from "@/core/conformance/currency-suite";
import type { RateTable } from "@/core/money/fx";
import { cn } from "@/lib/utils";

/** Runs the conformance suite in this browser (its Intl data is what is being checked). */
export function ConformanceSuite({ table }: { table: RateTable }) {
  const [checks, setChecks] = useState<Check[] | null>(null);
  const [onlyFailures, setOnlyFailures] = useState(false);
  useEffect(() => {
    const id = setTimeout(() => setChecks(runCurrencySuite(table)), 0);
    return () => clearTimeout(id);
  }, [table]);
  if (!checks)
    return (
      <p className="min-h-40 text-sm text-muted-foreground" role="status">
        Running the suite…
      </p>
    );
  const failed = checks.filter((c) => !c.pass).length;
  const differences = checks.filter((c) => c.group === "minor-units" && c.detail.includes("Intl "));
  return (
    <div className="grid gap-4">
      <p role="status" className={cn("text-sm font-medium", failed ? "text-destructive" : "text-success")}>
        {checks.length - failed} of {checks.length} checks pass{failed ? `, ${failed} fail` : ""} in this
        browser.
      </p>
      <div className="w-full overflow-x-auto rounded-lg border border-border">
        <table className="w-full text-sm tabular-nums">
          <caption className="sr-only">Checks by group</caption>
          <thead className="bg-muted/50 text-left text-xs uppercase tracking-wide text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2">
                Group
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Pass
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Fail
              </th>
            </tr>
          </thead>
          <tbody>
            {CHECK_GROUPS.map((g) => {
              const rows = checks.filter((c) => c.group === g.id);
              const bad = rows.filter((c) => !c.pass).length;
              return (
                <tr key={g.id} className="border-t border-border">
                  <td className="px-3 py-2">{g.label}</td>
                  <td className="px-3 py-2 text-right">{rows.length - bad}</td>
                  <td className={cn("px-3 py-2 text-right", bad && "font-semibold text-destructive")}>
                    {bad}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={onlyFailures} onChange={(e) => setOnlyFailures(e.target.checked)} />
        Show failures only
      </label>
      <div className="grid gap-2 rounded-lg border border-border p-4">
        <h3 className="text-sm font-semibold">Where Intl differs from ISO 4217 ({differences.length})</h3>
        <p className="text-sm text-muted-foreground">
          This browser's Intl data shows these currencies with other decimals than ISO 4217 lists. Abacus
          always formats with the ISO minor units (passing the fraction digits explicitly), so amounts stay
          exact.
        </p>
        <ul className="grid gap-1 text-xs">
          {differences.map((c) => (
            <li key={c.name} className="grid grid-cols-[3rem_2.5rem_1fr] gap-2">
              <span className="font-mono">{c.name}</span>
              <span className={c.pass ? "text-success" : "font-semibold text-destructive"}>
                {c.pass ? "pass" : "FAIL"}
              </span>
              <span className="min-w-0 break-words text-muted-foreground">{c.detail}</span>
            </li>
          ))}
        </ul>
      </div>
      {CHECK_GROUPS.map((g) => {
        const rows = checks.filter((c) => c.group === g.id && (!onlyFailures || !c.pass));
        return (
          <details
            key={g.id}
            className="rounded-lg border border-border p-3"
            open={onlyFailures && rows.length > 0}
          >
            <summary className="cursor-pointer text-sm font-medium">
              {g.label}: every check ({rows.length})
            </summary>
            <ul className="mt-2 grid gap-1 text-xs">
              {rows.map((c) => (
                <li key={c.name} className="grid grid-cols-[minmax(3rem,auto)_2.5rem_1fr] gap-2">
                  <span className="font-mono">{c.name}</span>
                  <span className={c.pass ? "text-success" : "font-semibold text-destructive"}>
                    {c.pass ? "pass" : "FAIL"}
                  </span>
                  <span className="min-w-0 break-words text-muted-foreground">{c.detail}</span>
                </li>
              ))}
            </ul>
          </details>
        );
      })}
    </div>
  );
}
