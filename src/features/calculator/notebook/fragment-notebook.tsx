"use client";

import { Link2 } from "lucide-react";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { LIMITS, parsePrecision } from "@/core/decimal/limits";
import type { RateTable } from "@/core/money/fx";
import { DEFAULT_ROUNDING } from "../decimal-session";
import type { CalculatorDefaults } from "../defaults";
import { NotebookEditor, type SheetDraft } from "./notebook-editor";
import { decodeSheetFragment, encodeSheetFragment } from "./sheet-fragment";

/**
 * The notebook without an account: the sheet lives in the URL fragment (`#sheet=…`), which the browser
 * never sends to a server, so the address is the sheet and a link shares it. Nothing is kept anywhere
 * else (the theme stays the only thing in local storage).
 */
export function FragmentNotebook({
  rates,
  defaults = null,
  hint,
}: {
  rates: RateTable | null;
  defaults?: CalculatorDefaults | null;
  hint?: React.ReactNode;
}) {
  const [draft, setDraft] = useState<SheetDraft>(() => ({
    text: "",
    precisionText: String(defaults?.precision ?? LIMITS.defaultPrecision),
    rounding: defaults?.roundingMode ?? DEFAULT_ROUNDING,
  }));
  const [problem, setProblem] = useState<string | null>(null);
  const [tooBigForLink, setTooBigForLink] = useState(false);
  const loaded = useRef(false);

  // open the sheet of the link (also when only the fragment changes: another shared link pasted)
  useEffect(() => {
    let live = true;
    async function open() {
      const read = await decodeSheetFragment(window.location.hash);
      if (!live) return;
      if (read.kind === "sheet") {
        setDraft({
          text: read.sheet.text,
          precisionText: String(read.sheet.precision),
          rounding: read.sheet.rounding,
        });
        setProblem(null);
      } else if (read.kind !== "none") {
        setProblem(read.message);
      }
      loaded.current = true;
    }
    void open();
    const onHash = () => void open();
    window.addEventListener("hashchange", onHash);
    return () => {
      live = false;
      window.removeEventListener("hashchange", onHash);
    };
  }, []);

  // write the sheet back to the fragment, a moment after the typing stops
  useEffect(() => {
    if (!loaded.current) return;
    const precision = parsePrecision(draft.precisionText) ?? LIMITS.defaultPrecision;
    const timer = setTimeout(async () => {
      const hash = await encodeSheetFragment({ text: draft.text, precision, rounding: draft.rounding });
      if (hash === null) {
        setTooBigForLink(true);
        return;
      }
      setTooBigForLink(false);
      const url = `${window.location.pathname}${window.location.search}${hash}`;
      if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
        window.history.replaceState(window.history.state, "", url);
      }
    }, 250);
    return () => clearTimeout(timer);
  }, [draft]);

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(window.location.href);
      notify.success("Link to this sheet copied");
    } catch {
      notify.error("Could not copy: the browser refused access to the clipboard");
    }
  }

  return (
    <NotebookEditor
      draft={draft}
      onChange={(next) => {
        setProblem(null);
        setDraft(next);
      }}
      rates={rates}
      title="Sheet"
      toolbar={
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={copyLink}
          disabled={draft.text.trim() === "" || tooBigForLink}
        >
          <Link2 aria-hidden /> Copy link
        </Button>
      }
      notice={
        <>
          {problem ? (
            <p
              role="alert"
              className="mt-3 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
            >
              {problem}
            </p>
          ) : null}
          {tooBigForLink ? (
            <p role="status" className="mt-3 rounded-md border border-border bg-muted/50 p-3 text-sm">
              This sheet is too big to live in the link: the address no longer follows your changes. Export it
              to keep it.
            </p>
          ) : null}
          {hint ?? (
            <p className="mt-2 text-xs text-muted-foreground">
              This sheet lives only in this page's address: bookmark or share the link to keep it.{" "}
              <Link
                href="/sign-in?redirect_url=%2Fcalculator"
                className="underline underline-offset-4 hover:text-foreground"
              >
                Sign in
              </Link>{" "}
              to save sheets to your organization.
            </p>
          )}
        </>
      }
    />
  );
}
