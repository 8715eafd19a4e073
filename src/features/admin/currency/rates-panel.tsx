"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useId, useRef, useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { type DataColumn, DataTable } from "@/components/ui/data-table";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FileInput } from "@/components/ui/file-input";
import { Input, Label } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { MAX_RATES_FILE_CHARS } from "@/core/money/rates";
import { plural } from "@/core/plural";
import type { RatePreview } from "@/server/fx";
import { applyRatesAction, editRateAction, previewRatesAction } from "../actions";

export type RateRowView = { currency: string; rate: string; date: string; source?: string };

function EditRate({ row, today }: { row: RateRowView; today: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [rate, setRate] = useState(row.rate);
  const [date, setDate] = useState(today);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, start] = useTransition();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start(async () => {
      const r = await callAction(() => editRateAction({ currency: row.currency, rate, date }));
      if (!r) return;
      if (r.ok) {
        notify.success(r.message ?? "Saved.");
        setOpen(false);
        router.refresh();
      } else {
        notify.error(r.error);
        setErrors(r.fieldErrors ?? {});
      }
    });
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="-my-1.5" aria-label={`Edit the ${row.currency} rate`}>
          Edit
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Edit ${row.currency}`}
        description={`Units of ${row.currency} per 1 EUR. Now ${row.rate} (${row.date}).`}
      >
        <form onSubmit={submit} className="grid gap-1" noValidate>
          <Field id={`rate-${row.currency}`} label="Rate" error={errors.rate}>
            {(p) => (
              <Input {...p} inputMode="decimal" value={rate} onChange={(e) => setRate(e.target.value)} />
            )}
          </Field>
          <Field id={`date-${row.currency}`} label="Date of the rate" error={errors.date}>
            {(p) => <Input {...p} type="date" value={date} onChange={(e) => setDate(e.target.value)} />}
          </Field>
          <div>
            <SubmitButton pending={pending}>Save rate</SubmitButton>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function RatesTable({
  rows,
  editable,
  today,
}: {
  rows: RateRowView[];
  editable: boolean;
  today: string;
}) {
  const columns: DataColumn<RateRowView>[] = [
    {
      id: "currency",
      header: "Currency",
      cell: ({ row }) => <span className="font-mono">{row.original.currency}</span>,
    },
    {
      id: "rate",
      header: "Per 1 EUR",
      meta: { className: "text-right" },
      cell: ({ row }) => row.original.rate,
    },
    {
      id: "date",
      header: editable ? "Date" : "Source",
      meta: { className: "hidden sm:table-cell" },
      cell: ({ row }) => (editable ? row.original.date : row.original.source),
    },
    ...(editable
      ? [
          {
            id: "edit",
            header: () => <span className="sr-only">Edit</span>,
            meta: { className: "text-right" },
            cell: ({ row }: { row: { original: RateRowView } }) => (
              <EditRate row={row.original} today={today} />
            ),
          } satisfies DataColumn<RateRowView>,
        ]
      : []),
  ];
  return (
    <DataTable
      columns={columns}
      data={rows}
      caption="Rates"
      getRowId={(r) => r.currency}
      // Two short columns and a button: the whole table fits a phone, 30 cards would not help.
      cards={false}
      empty="No rates for this date. Import an ECB file or a CSV below."
    />
  );
}

/** Import an ECB eurofxref XML (daily or history) or a CSV: preview the changes, then apply. */
export function RatesImport() {
  const id = useId();
  const router = useRouter();
  const [file, setFile] = useState<{ name: string; text: string; kind: "ecb-xml" | "csv" } | null>(null);
  const [date, setDate] = useState("");
  const [preview, setPreview] = useState<RatePreview | null>(null);
  const [error, setError] = useState("");
  const [pending, start] = useTransition();
  const fileInput = useRef<HTMLInputElement>(null);

  const choose = async (f: File | undefined) => {
    setPreview(null);
    setError("");
    setFile(null);
    if (!f) return;
    // The cap is checked here as a courtesy; the server checks it again before parsing.
    if (f.size > MAX_RATES_FILE_CHARS) {
      setError(`The file is too large (at most ${MAX_RATES_FILE_CHARS / 1000} kB).`);
      return;
    }
    const text = await f.text();
    const kind = /\.xml$/i.test(f.name) || text.trimStart().startsWith("<") ? "ecb-xml" : "csv";
    setFile({ name: f.name, text, kind });
  };
  // A file picked before the page hydrated fired its change event before React listened: take it up.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount
  useEffect(() => {
    const early = fileInput.current?.files?.[0];
    if (early) void choose(early);
  }, []);
  const input = () => ({ kind: file?.kind ?? "csv", text: file?.text ?? "", date });
  const doPreview = () =>
    start(async () => {
      const r = await callAction(() => previewRatesAction(input()));
      if (!r) return;
      // No toast: the preview (or the error) appears right below, in a live region. A toast here
      // would still be up when the import's own toast arrives.
      if (r.ok) {
        setPreview(r.data);
        setError("");
      } else {
        setPreview(null);
        setError(r.fieldErrors?.date ?? r.error);
      }
    });
  const doApply = () =>
    start(async () => {
      const r = await callAction(() => applyRatesAction(input()));
      if (!r) return;
      if (r.ok) {
        notify.success(r.message ?? "Imported.");
        setPreview(null);
        setFile(null);
        router.refresh();
      } else notify.error(r.error);
    });
  return (
    <div className="grid gap-4">
      <div className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-file`}>ECB XML or CSV file</Label>
          <FileInput
            ref={fileInput}
            id={`${id}-file`}
            accept=".xml,.csv,text/xml,application/xml,text/csv"
            fileName={file?.name}
            onFiles={(files) => void choose(files[0])}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-date`}>Date (CSV without a date column)</Label>
          <Input id={`${id}-date`} type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        <Button type="button" variant="secondary" disabled={!file || pending} onClick={doPreview}>
          Preview
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        ECB files: <span className="font-mono">eurofxref-daily.xml</span> or{" "}
        <span className="font-mono">eurofxref-hist-90d.xml</span>. CSV: a header with{" "}
        <span className="font-mono">currency,rate</span> and optionally{" "}
        <span className="font-mono">date</span>.
      </p>
      <p className="min-h-5 text-sm text-destructive" aria-live="polite">
        {error}
      </p>
      {preview ? (
        <div className="grid gap-3 rounded-lg border border-border p-4" aria-live="polite">
          <p className="text-sm">
            <span className="font-medium">{file?.name}</span>: {plural(preview.rowCount, "rate")} on{" "}
            {plural(preview.dates.length, "date")}
            {preview.dates.length > 1
              ? ` (${preview.dates.at(-1)} to ${preview.dates[0]})`
              : preview.dates.length
                ? ` (${preview.dates[0]})`
                : ""}
            . History: {preview.added} new, {preview.changed} changed, {preview.unchanged} unchanged.
          </p>
          {preview.issues.length ? (
            <div className="grid gap-2">
              <p className="text-sm font-medium text-destructive">
                {plural(preview.issues.length, "row")} must be fixed before this file can be imported:
              </p>
              <ul className="grid gap-1 text-sm">
                {preview.issues.map((i) => (
                  <li key={`${i.where}-${i.message}`}>
                    <span className="font-mono text-xs">{i.where}</span>: {i.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <>
              {preview.current.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  No current rate changes (the file is older or the same).
                </p>
              ) : (
                <table className="w-full text-sm tabular-nums">
                  <caption className="text-left text-sm font-medium">Current rates that will change</caption>
                  <thead className="text-left text-xs uppercase tracking-wide text-muted-foreground">
                    <tr>
                      <th scope="col" className="py-1">
                        Currency
                      </th>
                      <th scope="col" className="py-1 text-right">
                        Now
                      </th>
                      <th scope="col" className="py-1 text-right">
                        New
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.current.map((c) => (
                      <tr key={c.currency} className="border-t border-border">
                        <td className="py-1 font-mono">{c.currency}</td>
                        <td className="py-1 text-right text-muted-foreground">{c.before ?? "—"}</td>
                        <td className="py-1 text-right">{c.after}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <div className="flex gap-2">
                <Button type="button" disabled={pending} onClick={doApply}>
                  Apply import
                </Button>
                <Button type="button" variant="ghost" onClick={() => setPreview(null)}>
                  Cancel
                </Button>
              </div>
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
