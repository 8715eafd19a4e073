"use client";

import { Download, ExternalLink, Search, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button, buttonVariants } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { SearchForm } from "@/components/ui/search-form";
import { deleteCalculationAction, restoreCalculationAction } from "./actions";

export type HistoryRow = {
  id: string;
  mode: "decimal" | "currency";
  expression: string;
  result: string;
  precision: number;
  rounding: string;
  currencies: string[];
  note: string;
  savedAt: string;
  savedBy: string;
  canDelete: boolean;
};

/**
 * The calculator URL that re-opens a saved calculation: a conversion in the Currency mode with its
 * amount, source and every target; an expression in the Decimal mode.
 */
export function reopenHref(
  row: Pick<HistoryRow, "mode" | "expression" | "precision" | "rounding" | "currencies">,
): string {
  const lines = row.expression.split("\n");
  if (row.mode === "currency") {
    const parsed = lines.map((line) => /^(.+?)\s+([A-Za-z]{3})\s+in\s+([A-Za-z]{3})$/.exec(line.trim()));
    const first = parsed[0];
    if (first && parsed.every(Boolean)) {
      const params = new URLSearchParams({
        mode: "currency",
        amount: first[1] ?? "",
        from: (first[2] ?? "").toUpperCase(),
        to: parsed.map((m) => (m?.[3] ?? "").toUpperCase()).join(","),
        rounding: row.rounding,
      });
      return `/calculator?${params}`;
    }
  }
  const params = new URLSearchParams({
    mode: "decimal",
    expr: lines[0] ?? "",
    precision: String(row.precision),
    rounding: row.rounding,
  });
  return `/calculator?${params}`;
}

function pageHref(q: string, page: number) {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return `/dashboard${query ? `?${query}` : ""}#history`;
}

export function HistoryList({
  rows,
  q,
  page,
  pages,
  total,
  canExport,
  exportHint,
}: {
  rows: HistoryRow[];
  q: string;
  page: number;
  pages: number;
  total: number;
  canExport: boolean;
  exportHint: string;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [asking, setAsking] = useState<HistoryRow | null>(null);
  const [search, setSearch] = useState(q);

  async function remove(row: HistoryRow) {
    setBusy(row.id);
    const result = await callAction(() => deleteCalculationAction({ id: row.id }));
    setBusy(null);
    if (!result) return;
    if (!result.ok) return notify.error(result.error);
    const { undo } = result.data;
    router.refresh();
    const { toast } = await import("sonner");
    toast.success("Calculation deleted.", {
      action: {
        label: "Undo",
        onClick: () => {
          void callAction(() => restoreCalculationAction({ id: row.id, undo })).then((undone) => {
            if (!undone) return;
            if (!undone.ok) return notify.error(undone.error);
            notify.success("Calculation restored.");
            router.refresh();
          });
        },
      },
    });
  }

  return (
    <div className="grid gap-4">
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title="Delete this calculation?"
        description={
          <>
            “<span className="break-all font-mono">{asking?.expression.split("\n")[0]}</span>” leaves the
            history of everyone in this organization. You can undo it for a few seconds.
          </>
        }
        confirmLabel="Delete"
        destructive
        onConfirm={() => {
          if (asking) void remove(asking);
        }}
      />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <SearchForm
          action="/dashboard"
          className="flex w-full min-w-0 flex-1 items-end gap-2"
          aria-label="Search saved calculations"
        >
          <div className="grid min-w-0 flex-1 gap-1">
            <label htmlFor="history-q" className="text-sm font-medium">
              Search expressions, results and notes
            </label>
            <Input
              id="history-q"
              name="q"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              maxLength={200}
              placeholder="e.g. invoice or EUR"
            />
          </div>
          <Button type="submit" variant="outline">
            <Search aria-hidden />
            Search
          </Button>
        </SearchForm>
        {canExport ? (
          <a className={buttonVariants({ variant: "outline" })} href="/dashboard/history.csv" download>
            <Download aria-hidden />
            Export CSV
          </a>
        ) : (
          <p className="text-sm text-muted-foreground">{exportHint}</p>
        )}
      </div>

      {rows.length === 0 ? (
        <div className="rounded-md border border-dashed border-border p-6 text-sm text-muted-foreground">
          {q ? (
            <>
              Nothing matches “{q}”.{" "}
              <Link
                href="/dashboard"
                scroll={false}
                onClick={() => setSearch("")}
                className="underline underline-offset-4"
              >
                Clear the search
              </Link>
              .
            </>
          ) : (
            <>
              No saved calculations yet. Open the{" "}
              <Link href="/calculator" className="underline underline-offset-4">
                calculator
              </Link>
              , work something out in the Decimal or Currency mode and press <strong>Save</strong>: it appears
              here for everyone in this organization.
            </>
          )}
        </div>
      ) : (
        <ul
          className="divide-y divide-border rounded-md border border-border"
          aria-label="Saved calculations"
        >
          {rows.map((row) => (
            <li
              key={row.id}
              className="grid gap-2 p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center"
              data-testid="saved-row"
            >
              <div className="min-w-0">
                <p className="font-mono text-sm break-all whitespace-pre-wrap">{row.expression}</p>
                <p className="font-mono text-base font-medium break-all tabular">= {row.result}</p>
                {row.note ? <p className="mt-1 text-sm break-words">{row.note}</p> : null}
                <p className="mt-1 text-xs text-muted-foreground">
                  {row.mode === "currency" ? "Currency" : "Decimal"} · {row.precision} digits · {row.rounding}
                  {row.currencies.length ? ` · ${row.currencies.join(" ")}` : ""} · {row.savedAt}
                  {row.savedBy ? ` by ${row.savedBy}` : ""}
                </p>
              </div>
              <div className="flex gap-2">
                <Link className={buttonVariants({ variant: "outline", size: "sm" })} href={reopenHref(row)}>
                  <ExternalLink aria-hidden />
                  Open
                </Link>
                {row.canDelete ? (
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    disabled={busy === row.id}
                    onClick={() => setAsking(row)}
                    aria-label={`Delete ${row.expression.split("\n")[0]}`}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}

      {pages > 1 ? (
        <nav aria-label="History pages" className="flex items-center justify-between text-sm">
          <span className="text-muted-foreground tabular">
            {total} saved · page {page} of {pages}
          </span>
          <span className="flex gap-2">
            {page > 1 ? (
              <Link
                className={buttonVariants({ variant: "outline", size: "sm" })}
                href={pageHref(q, page - 1)}
              >
                Previous
              </Link>
            ) : null}
            {page < pages ? (
              <Link
                className={buttonVariants({ variant: "outline", size: "sm" })}
                href={pageHref(q, page + 1)}
              >
                Next
              </Link>
            ) : null}
          </span>
        </nav>
      ) : null}
    </div>
  );
}
