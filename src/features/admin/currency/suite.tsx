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
      {CHECK_GROUPS.map((g) => {
        const rows = checks.filter((c) => c.group === g.id && (!onlyFailures || !c.pass));
        const notes =
          g.id === "minor-units" ? checks.filter((c) => c.group === g.id && c.detail.includes("Intl ")) : [];
        return (
          <details key={g.id} className="rounded-lg border border-border p-3" open={g.id === "minor-units"}>
            <summary className="cursor-pointer text-sm font-medium">
              {g.label} ({rows.length})
            </summary>
            {notes.length ? (
              <p className="mt-2 text-sm text-muted-foreground">
                {notes.length} currencies where Intl differs from ISO 4217: listed below with the reason.
              </p>
            ) : null}
            <ul className="mt-2 grid gap-1 text-xs">
              {(g.id === "minor-units" && !onlyFailures
                ? [...notes, ...rows.filter((r) => !notes.includes(r))]
                : rows
              ).map((c) => (
                <li key={c.name} className="grid grid-cols-[4.5rem_2.5rem_1fr] gap-2">
                  <span className="font-mono">{c.name.slice(0, 24)}</span>
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
