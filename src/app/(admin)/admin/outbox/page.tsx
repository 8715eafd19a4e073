import type { Metadata } from "next";
import { OutboxList } from "@/features/outbox/outbox-list";
import { requireAdmin } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/env";
import { latestMail } from "@/server/mail/outbox";

export const metadata: Metadata = { title: "Outbox" };

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

export default async function OutboxPage() {
  await requireAdmin("/admin/outbox");
  const rows = await latestMail(getDb(), 200);
  const smtp = Boolean(getEnv().SMTP_URL);
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-12 sm:px-6">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">Outbox</h1>
        <p className="mt-2 text-muted-foreground">
          {smtp
            ? "Every message the instance sent through its mail server, with the delivery result. The newest 200."
            : "No mail server is configured (SMTP_URL), so messages are kept here instead of being sent. Open one to read it and follow its links. The newest 200."}
        </p>
      </div>
      <OutboxList
        items={rows.map((row) => ({
          id: row.id,
          to: row.to,
          kind: row.kind,
          subject: row.subject,
          text: row.text,
          status: row.status,
          error: row.error,
          createdAt: `${when.format(row.createdAt)} UTC`,
        }))}
      />
    </div>
  );
}
