import type * as React from "react";

export type OutboxItem = {
  id: string;
  to: string;
  kind: string;
  subject: string;
  text: string;
  status: "kept" | "sent" | "failed";
  error: string | null;
  createdAt: string;
};

const STATUS_TEXT = { kept: "Kept (no mail server)", sent: "Sent", failed: "Delivery failed" } as const;
const STATUS_CLASS = {
  kept: "bg-muted text-muted-foreground",
  sent: "bg-emerald-600/15 text-emerald-800 dark:text-emerald-300",
  failed: "bg-destructive/15 text-destructive",
} as const;

/** Plain text with its http(s) links made clickable (nothing else is interpreted). */
function Linkified({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    const index = match.index ?? 0;
    parts.push(text.slice(last, index));
    parts.push(
      <a key={index} href={match[0]} className="break-all text-primary underline underline-offset-2">
        {match[0]}
      </a>,
    );
    last = index + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/** The outbox for platform admins: newest first, each message readable in full. */
export function OutboxList({ items }: { items: OutboxItem[] }) {
  if (items.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-border p-8 text-center text-sm text-muted-foreground">
        No mail yet. Messages appear here as soon as the instance sends one: sign-up confirmations, password
        resets, invitations and security notices.
      </p>
    );
  }
  return (
    <ul className="grid min-w-0 grid-cols-1 gap-2" aria-label="Outgoing mail">
      {items.map((item) => (
        <li key={item.id} className="min-w-0 rounded-lg border border-border bg-card">
          <details className="group">
            <summary className="flex cursor-pointer list-none flex-wrap items-center justify-between gap-x-4 gap-y-1 p-4">
              <div className="min-w-0 max-w-full flex-1">
                <p className="truncate font-medium">{item.subject}</p>
                <p className="truncate text-sm text-muted-foreground">
                  To {item.to} · <span className="tabular-nums">{item.createdAt}</span>
                </p>
              </div>
              <span
                className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[item.status]}`}
              >
                {STATUS_TEXT[item.status]}
              </span>
            </summary>
            <div className="border-t border-border p-4">
              {item.error ? <p className="mb-3 text-sm text-destructive">Error: {item.error}</p> : null}
              <pre className="whitespace-pre-wrap break-words font-sans text-sm leading-relaxed">
                <Linkified text={item.text} />
              </pre>
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}
