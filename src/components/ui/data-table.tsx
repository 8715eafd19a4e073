"use client";

import { type ColumnDef, type RowData, tableFeatures, useTable } from "@tanstack/react-table";
import type * as React from "react";
import { cn } from "@/lib/utils";

export const dataTableFeatures = tableFeatures({});
// biome-ignore lint/suspicious/noExplicitAny: each column of a table has its own value type
export type DataColumn<T extends RowData> = ColumnDef<typeof dataTableFeatures, T, any>;

declare module "@tanstack/react-table" {
  interface ColumnMeta<TFeatures, TData, TValue> {
    /** Classes for the column's cells: alignment, `hidden sm:table-cell` for narrow screens. */
    className?: string;
    /** The column's name over its cells when rows are shown as cards (default: a text header). */
    label?: string;
  }
}

/**
 * A table on TanStack Table with our look: tabular figures, a header row, row separators. Sorting,
 * filtering and paging happen on the server (their state lives in the URL); this renders a page.
 * Where its box is narrow (a phone) each row becomes a card with every cell under its column's
 * name (`stacked-table` in globals.css), so nothing is cut off or scrolled out of sight.
 */
export function DataTable<T extends RowData>({
  columns,
  data,
  caption,
  empty,
  getRowId,
  className,
  cards = true,
}: {
  columns: DataColumn<T>[];
  data: T[];
  caption: string;
  empty: React.ReactNode;
  getRowId?: (row: T) => string;
  className?: string;
  /** Rows become cards where the box is narrow; false for a table a phone shows whole anyway. */
  cards?: boolean;
}) {
  const table = useTable({ features: dataTableFeatures, columns, data, getRowId });
  const rows = table.getRowModel().rows;
  return (
    <div className={cn("@container w-full max-w-full", className)}>
      <div
        className={cn(
          "overflow-x-auto rounded-lg border border-border",
          cards && "@max-xl:overflow-visible @max-xl:border-0",
        )}
      >
        <table className={cn("w-full border-collapse text-sm tabular-nums", cards && "stacked-table")}>
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-muted/50 text-left text-xs uppercase tracking-wide text-muted-foreground">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th
                    key={header.id}
                    scope="col"
                    className={cn("px-3 py-2 font-medium", header.column.columnDef.meta?.className)}
                  >
                    {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="px-3 py-8 text-center text-muted-foreground">
                  {empty}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id} className="border-t border-border align-top">
                  {row.getAllCells().map((cell) => (
                    <td
                      key={cell.id}
                      className={cn("px-3 py-2", cell.column.columnDef.meta?.className)}
                      data-label={
                        cell.column.columnDef.meta?.label ??
                        (typeof cell.column.columnDef.header === "string" && cell.column.columnDef.header
                          ? cell.column.columnDef.header
                          : undefined)
                      }
                    >
                      <table.FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
