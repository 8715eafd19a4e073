"use client";

import { Download } from "lucide-react";
import { memo } from "react";
import { Button } from "@/components/ui/button";
import type { LineResult } from "@/core/decimal/sheet";

export interface SheetExport {
  readonly title: string;
  readonly text: string;
  readonly results: readonly LineResult[];
}

/**
 * CSV and Markdown downloads; the export code (and papaparse) loads on the first click. The sheet is read
 * when a button is clicked (`read`), so typing in the sheet does not render the buttons again.
 */
export const ExportMenu = memo(function ExportMenu({
  read,
  empty,
}: {
  read: () => SheetExport;
  empty: boolean;
}) {
  async function save(kind: "csv" | "md") {
    const sheet = read();
    const m = await import("./sheet-export");
    const rows = m.exportRows(sheet.text, sheet.results);
    if (kind === "csv") m.download(m.fileName(sheet.title, "csv"), m.toCsv(rows), "text/csv;charset=utf-8");
    else
      m.download(
        m.fileName(sheet.title, "md"),
        m.toMarkdown(sheet.title, rows),
        "text/markdown;charset=utf-8",
      );
  }
  return (
    <>
      <Button type="button" variant="outline" size="sm" disabled={empty} onClick={() => save("csv")}>
        <Download aria-hidden /> CSV
      </Button>
      <Button type="button" variant="outline" size="sm" disabled={empty} onClick={() => save("md")}>
        <Download aria-hidden /> Markdown
      </Button>
    </>
  );
});
