"use client";

import { FilePlus2, History, Search, Trash2 } from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { LIMITS, parsePrecision } from "@/core/decimal/limits";
import type { RateTable } from "@/core/money/fx";
import { SHEET_ROW_LIMITS } from "@/core/notebook/limits";
import {
  createSheetAction,
  deleteSheetAction,
  listSheetsAction,
  openSheetAction,
  restoreSheetAction,
  type SavedSheet,
  type SheetSummary,
  updateSheetAction,
} from "@/features/sheets";
import { cn } from "@/lib/utils";
import { DEFAULT_ROUNDING } from "../decimal-session";
import type { CalculatorDefaults } from "../defaults";
import { NotebookEditor, type SheetDraft } from "./notebook-editor";
import { decodeSheetFragment } from "./sheet-fragment";

/** How long after the last keystroke a sheet is saved. */
const AUTOSAVE_MS = 800;

interface OpenSheet {
  readonly id: string | null;
  readonly title: string;
  readonly draft: SheetDraft;
  readonly updatedAt: string | null;
  readonly updatedByName: string | null;
}

type Status = { kind: "saved" | "unsaved" | "saving" } | { kind: "error"; message: string };

function opened(sheet: SavedSheet): OpenSheet {
  return {
    id: sheet.id,
    title: sheet.title,
    draft: { text: sheet.body, precisionText: String(sheet.precision), rounding: sheet.rounding },
    updatedAt: sheet.updatedAt,
    updatedByName: sheet.updatedByName,
  };
}

function blank(defaults: CalculatorDefaults | null): OpenSheet {
  return {
    id: null,
    title: "",
    draft: {
      text: "",
      precisionText: String(defaults?.precision ?? LIMITS.defaultPrecision),
      rounding: defaults?.roundingMode ?? DEFAULT_ROUNDING,
    },
    updatedAt: null,
    updatedByName: null,
  };
}

function setSheetParam(id: string | null) {
  const url = new URL(window.location.href);
  if (id) url.searchParams.set("sheet", id);
  else url.searchParams.delete("sheet");
  window.history.replaceState(window.history.state, "", url);
}

/**
 * The notebook of a member: sheets saved to the active organization, each saved a moment after the
 * typing stops, readable and editable by every member. The server checks membership on every call.
 */
export function SavedNotebook({
  rates,
  defaults = null,
  initial,
  sheets: initialList,
  organization,
  userName,
}: {
  rates: RateTable | null;
  defaults?: CalculatorDefaults | null;
  initial: SavedSheet | null;
  sheets: SheetSummary[];
  organization: string;
  /** The viewer's name: "edited by" after their own saves. */
  userName: string;
}) {
  const ids = useId();
  const [sheet, setSheet] = useState<OpenSheet>(() => (initial ? opened(initial) : blank(defaults)));
  const [status, setStatus] = useState<Status>({ kind: "saved" });
  const [list, setList] = useState(initialList);
  const [query, setQuery] = useState("");
  const latest = useRef(sheet);
  latest.current = sheet;
  const dirty = useRef(false);
  const inFlight = useRef<Promise<unknown> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = useCallback(async () => {
    clearTimeout(timer.current);
    while (inFlight.current) await inFlight.current;
    if (!dirty.current) return;
    const s = latest.current;
    const precision = parsePrecision(s.draft.precisionText);
    if (precision === null) return; // the settings show why; saved once the precision is valid
    if (s.id === null && s.draft.text.trim() === "" && s.title.trim() === "") return;
    dirty.current = false;
    setStatus({ kind: "saving" });
    const fields = { title: s.title, body: s.draft.text, precision, rounding: s.draft.rounding };
    const request = s.id ? updateSheetAction({ id: s.id, ...fields }) : createSheetAction(fields);
    inFlight.current = request;
    const r = await request.finally(() => {
      inFlight.current = null;
    });
    if (!r.ok) {
      dirty.current = true;
      setStatus({
        kind: "error",
        message: r.fieldErrors ? (Object.values(r.fieldErrors)[0] ?? r.error) : r.error,
      });
      return;
    }
    const id = s.id ?? (r.data as SavedSheet).id;
    const updatedAt = r.data.updatedAt;
    if (latest.current.id === s.id) {
      latest.current = { ...latest.current, id, updatedAt, updatedByName: userName };
      setSheet((prev) => (prev.id === s.id ? { ...prev, id, updatedAt, updatedByName: userName } : prev));
      if (!s.id) setSheetParam(id);
    }
    setList((prev) => [
      { id, title: s.title, updatedAt, updatedByName: userName },
      ...prev.filter((x) => x.id !== id),
    ]);
    setStatus({ kind: dirty.current ? "unsaved" : "saved" });
  }, [userName]);

  // a shared link (#sheet=…) opens as a new sheet, saved to the organization once edited or saved
  const [fromLink, setFromLink] = useState(false);
  useEffect(() => {
    void decodeSheetFragment(window.location.hash).then((read) => {
      if (read.kind === "none") return;
      const url = new URL(window.location.href);
      url.hash = "";
      url.searchParams.delete("sheet");
      window.history.replaceState(window.history.state, "", url);
      if (read.kind !== "sheet") {
        notify.error(read.message);
        return;
      }
      const next = {
        ...blank(defaults),
        draft: {
          text: read.sheet.text,
          precisionText: String(read.sheet.precision),
          rounding: read.sheet.rounding,
        },
      };
      latest.current = next;
      setSheet(next);
      setFromLink(true);
    });
  }, [defaults]);

  function saveFromLink() {
    dirty.current = true;
    setFromLink(false);
    void flush();
  }

  function edit(next: OpenSheet) {
    setFromLink(false);
    latest.current = next;
    setSheet(next);
    dirty.current = true;
    setStatus({ kind: "unsaved" });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), AUTOSAVE_MS);
  }

  // unsaved changes: save them when the tab is hidden, and warn before leaving
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden") void flush();
    };
    const onLeave = (event: BeforeUnloadEvent) => {
      if (dirty.current || inFlight.current) event.preventDefault();
    };
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("beforeunload", onLeave);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("beforeunload", onLeave);
    };
  }, [flush]);

  // searching the list, a moment after the typing stops
  const firstSearch = useRef(true);
  useEffect(() => {
    if (firstSearch.current) {
      firstSearch.current = false;
      return;
    }
    const t = setTimeout(async () => {
      const r = await listSheetsAction({ q: query });
      if (r.ok) setList(r.data);
      else notify.error(r.error);
    }, 250);
    return () => clearTimeout(t);
  }, [query]);

  async function open(id: string) {
    await flush();
    const r = await openSheetAction({ id });
    if (!r.ok) {
      notify.error(r.error);
      setList((prev) => prev.filter((x) => x.id !== id));
      return;
    }
    dirty.current = false;
    setSheet(opened(r.data));
    setStatus({ kind: "saved" });
    setSheetParam(id);
  }

  async function startNew() {
    await flush();
    dirty.current = false;
    setSheet(blank(defaults));
    setStatus({ kind: "saved" });
    setSheetParam(null);
  }

  async function remove() {
    const { id, title } = latest.current;
    if (!id) {
      await startNew();
      return;
    }
    clearTimeout(timer.current);
    while (inFlight.current) await inFlight.current;
    dirty.current = false;
    const r = await deleteSheetAction({ id });
    if (!r.ok) {
      notify.error(r.error);
      return;
    }
    setList((prev) => prev.filter((x) => x.id !== id));
    setSheet(blank(defaults));
    setStatus({ kind: "saved" });
    setSheetParam(null);
    notify.info(`Deleted “${title || "Untitled sheet"}”`, {
      label: "Undo",
      onClick: async () => {
        const back = await restoreSheetAction({ id });
        if (!back.ok) notify.error(back.error);
        else await open(id);
      },
    });
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_16rem]">
      <div className="grid min-w-0 gap-3">
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid min-w-0 flex-1 gap-1.5">
            <Label htmlFor={`${ids}-title`}>Title</Label>
            <Input
              id={`${ids}-title`}
              value={sheet.title}
              maxLength={SHEET_ROW_LIMITS.titleChars}
              placeholder="Untitled sheet"
              onChange={(event) => edit({ ...latest.current, title: event.target.value })}
            />
          </div>
          <SaveState status={status} sheet={sheet} organization={organization} />
        </div>
        <NotebookEditor
          draft={sheet.draft}
          onChange={(draft) => edit({ ...latest.current, draft })}
          rates={rates}
          title={sheet.title || "Sheet"}
          notice={
            fromLink ? (
              <p
                role="status"
                className="mt-3 flex flex-wrap items-center gap-3 rounded-md border border-border bg-muted/50 p-3 text-sm"
              >
                This sheet came from a link. It is saved to {organization} when you edit it.
                <Button type="button" size="sm" onClick={saveFromLink}>
                  Save to {organization}
                </Button>
              </p>
            ) : null
          }
          toolbar={
            <Button type="button" variant="outline" size="sm" onClick={remove} disabled={!sheet.id}>
              <Trash2 aria-hidden /> Delete
            </Button>
          }
        />
      </div>
      <aside
        aria-labelledby={`${ids}-list`}
        className="grid min-w-0 content-start gap-3 rounded-lg border border-border bg-card p-4"
      >
        <div className="flex items-center justify-between gap-2">
          <h2 id={`${ids}-list`} className="text-sm font-semibold">
            Sheets of {organization}
          </h2>
          <Button type="button" size="sm" variant="outline" onClick={startNew}>
            <FilePlus2 aria-hidden /> New
          </Button>
        </div>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground"
            aria-hidden
          />
          <Input
            type="search"
            aria-label="Search sheets"
            placeholder="Search sheets"
            value={query}
            maxLength={SHEET_ROW_LIMITS.search}
            onChange={(event) => setQuery(event.target.value)}
            className="pl-8"
          />
        </div>
        {list.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {query ? "No sheet matches." : "No sheets yet: type one."}
          </p>
        ) : (
          <ul className="grid max-h-[28rem] gap-1 overflow-y-auto" aria-label="Sheets">
            {list.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  onClick={() => void open(s.id)}
                  aria-current={s.id === sheet.id ? "true" : undefined}
                  className={cn(
                    "grid w-full rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring",
                    s.id === sheet.id && "bg-accent",
                  )}
                >
                  <span className="truncate font-medium">{s.title || "Untitled sheet"}</span>
                  <span className="truncate text-xs text-muted-foreground">
                    <When iso={s.updatedAt} />
                    {s.updatedByName ? ` · ${s.updatedByName}` : ""}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <Link
          href="/dashboard"
          className="inline-flex items-center gap-1.5 text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
        >
          <History className="size-4" aria-hidden /> Saved calculations
        </Link>
      </aside>
    </div>
  );
}

function SaveState({
  status,
  sheet,
  organization,
}: {
  status: Status;
  sheet: OpenSheet;
  organization: string;
}) {
  if (status.kind === "error") {
    return (
      <p role="alert" className="text-sm text-destructive" data-testid="save-state">
        Not saved: {status.message}
      </p>
    );
  }
  const text =
    status.kind === "saving"
      ? "Saving…"
      : status.kind === "unsaved"
        ? "Unsaved changes"
        : sheet.id
          ? null
          : `Saved to ${organization} as you type`;
  return (
    <p role="status" className="min-h-5 text-sm text-muted-foreground" data-testid="save-state">
      {text ?? (
        <>
          Saved · edited <When iso={sheet.updatedAt} />
          {sheet.updatedByName ? ` by ${sheet.updatedByName}` : ""}
        </>
      )}
    </p>
  );
}

function When({ iso }: { iso: string | null }) {
  if (!iso) return null;
  const date = new Date(iso);
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {date.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC
    </time>
  );
}
