import Link from "next/link";
import { cn } from "@/lib/utils";

/** Previous/next links for a server-side paged list; the page lives in the URL. */
export function Pager({
  page,
  total,
  pageSize,
  href,
  label,
}: {
  page: number;
  total: number;
  pageSize: number;
  href: (page: number) => string;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const link = "inline-flex h-9 items-center rounded-md border border-border px-3 text-sm hover:bg-muted";
  const off = "pointer-events-none opacity-50";
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="tabular-nums text-muted-foreground">
        {total === 0
          ? "0 results"
          : `${(page - 1) * pageSize + 1}–${Math.min(total, page * pageSize)} of ${total}`}
      </span>
      <span className="flex gap-2">
        <Link href={href(page - 1)} className={cn(link, page <= 1 && off)} aria-disabled={page <= 1}>
          Previous
        </Link>
        <Link href={href(page + 1)} className={cn(link, page >= pages && off)} aria-disabled={page >= pages}>
          Next
        </Link>
      </span>
    </nav>
  );
}
