"use client";

import { type DataColumn, DataTable } from "@/components/ui/data-table";

export type AuditRowView = {
  id: string;
  at: string;
  actorEmail: string;
  action: string;
  targetLabel: string | null;
  before: unknown;
  after: unknown;
};

const json = (v: unknown) => (v === null || v === undefined ? "—" : JSON.stringify(v));

const columns: DataColumn<AuditRowView>[] = [
  {
    id: "at",
    header: "When (UTC)",
    meta: { className: "whitespace-nowrap" },
    cell: ({ row }) => (
      <time dateTime={row.original.at}>{row.original.at.slice(0, 16).replace("T", " ")}</time>
    ),
  },
  {
    id: "what",
    header: "Who · what · whom",
    cell: ({ row }) => (
      <div className="grid min-w-0 gap-0.5">
        <span className="font-mono text-xs">{row.original.action}</span>
        <span className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
          by {row.original.actorEmail}
        </span>
        <span className="text-xs [overflow-wrap:anywhere]">{row.original.targetLabel ?? "—"}</span>
      </div>
    ),
  },
  {
    id: "change",
    header: "Before → after",
    meta: { className: "hidden md:table-cell" },
    cell: ({ row }) => (
      <div className="grid max-w-md gap-0.5 font-mono text-xs break-all">
        <span className="text-muted-foreground">{json(row.original.before)}</span>
        <span>{json(row.original.after)}</span>
      </div>
    ),
  },
];

export function AuditTable({ rows }: { rows: AuditRowView[] }) {
  return (
    <DataTable
      columns={columns}
      data={rows}
      caption="Audit log"
      getRowId={(r) => r.id}
      empty="No admin action matches. Actions taken on this page and on the FX rates are recorded here."
    />
  );
}
