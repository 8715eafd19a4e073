"use client";

import { Mail } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { setContactHandledAction } from "../actions";

export type InboxMessage = {
  id: string;
  name: string;
  email: string;
  topic: string;
  message: string;
  createdAt: string;
  handledAt: string | null;
};

/** Contact messages: read, reply by email, mark handled (or open again). */
export function Inbox({ messages }: { messages: InboxMessage[] }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const toggle = (m: InboxMessage) =>
    start(async () => {
      const r = await callAction(() => setContactHandledAction({ id: m.id, handled: !m.handledAt }));
      if (!r) return;
      if (r.ok) {
        notify.success(r.message ?? "Done.");
        router.refresh();
      } else notify.error(r.error);
    });
  if (messages.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-border p-6 text-sm text-muted-foreground">
        No messages here. Messages sent through the contact page arrive in this inbox.
      </p>
    );
  return (
    <ul className="grid gap-3">
      {messages.map((m) => (
        <li key={m.id} className="grid gap-2 rounded-lg border border-border p-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p className="min-w-0 break-words font-medium">
              {m.name}{" "}
              <span className="text-sm font-normal [overflow-wrap:anywhere] text-muted-foreground">
                &lt;{m.email}&gt;
              </span>
            </p>
            <p className="text-xs tabular-nums text-muted-foreground">
              {m.topic} · {m.createdAt.slice(0, 16).replace("T", " ")} UTC
            </p>
          </div>
          <p className="whitespace-pre-wrap break-words text-sm leading-6">{m.message}</p>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="secondary" size="sm">
              <a
                href={`mailto:${m.email}?subject=${encodeURIComponent(`Re: your ${m.topic} message to Abacus`)}`}
              >
                <Mail aria-hidden /> Reply by email
              </a>
            </Button>
            <Button variant="outline" size="sm" disabled={pending} onClick={() => toggle(m)}>
              {m.handledAt ? "Mark open" : "Mark handled"}
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
