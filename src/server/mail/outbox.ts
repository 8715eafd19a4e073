import "server-only";
import { desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { mailOutbox } from "../db/schema";
import type { MailMessage } from "./templates";

export type Mailer = {
  /** Keeps the message in the outbox and, with a mail server, hands it over for delivery. */
  send(to: string, message: MailMessage): Promise<void>;
  /**
   * Runs `work` (a send already started) off the response path: nothing waits for it but `flush()`,
   * and a failure is logged, never thrown.
   */
  track(work: Promise<unknown>): void;
  /** Waits for sends and deliveries still in flight (tests, graceful shutdown). */
  flush(): Promise<void>;
};

export type MailerOptions = {
  /** Delivers one message; absent without SMTP_URL. */
  deliver?: (to: string, message: MailMessage) => Promise<void>;
  /**
   * Print each message's links (and code) to the terminal, one line each: only on a local instance,
   * where nothing is delivered and the person at the terminal is the one who signed up.
   */
  announce?: (line: string) => void;
};

/** The terminal lines for one message on a local instance: its links and its code, never its body. */
export function announcementLines(to: string, message: MailMessage): string[] {
  // Every message ends with the instance's bare origin: not a link anyone needs from the terminal.
  const links = [...new Set(message.text.match(/https?:\/\/\S+/g) ?? [])].filter((link) => {
    const url = URL.canParse(link) ? new URL(link) : null;
    return url !== null && (url.pathname !== "/" || url.search !== "");
  });
  const code = message.code ? ` code ${message.code}` : "";
  if (links.length === 0) return code ? [`[mail] ${message.subject} (to ${to}):${code}`] : [];
  return links.map((link, i) => `[mail] ${message.subject} (to ${to}):${i === 0 ? code : ""} ${link}`);
}

/**
 * Mail that always goes somewhere: every message is written to the outbox table first, so it can
 * be read in /admin/outbox when there is no mail server. Delivery runs after the request has its
 * answer, so the time an endpoint takes does not say whether a message was sent.
 */
export function createMailer(db: Db, options: MailerOptions = {}): Mailer {
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<unknown>) => {
    const tracked = work.then(
      () => undefined,
      (error: unknown) => {
        console.error("Mail could not be queued:", error instanceof Error ? error.message : "unknown");
      },
    );
    inFlight.add(tracked);
    void tracked.finally(() => inFlight.delete(tracked));
  };
  return {
    track,
    async send(to, message) {
      const [row] = await db
        .insert(mailOutbox)
        .values({ to, kind: message.kind, subject: message.subject, text: message.text, html: message.html })
        .returning({ id: mailOutbox.id });
      if (options.announce) for (const line of announcementLines(to, message)) options.announce(line);
      const deliver = options.deliver;
      if (!deliver || !row) return;
      const job = deliver(to, message).then(
        () =>
          db.update(mailOutbox).set({ status: "sent", sentAt: new Date() }).where(eq(mailOutbox.id, row.id)),
        (error: unknown) =>
          db
            .update(mailOutbox)
            .set({ status: "failed", error: error instanceof Error ? error.message.slice(0, 500) : "failed" })
            .where(eq(mailOutbox.id, row.id)),
      );
      track(job);
    },
    async flush() {
      // A tracked send may start a delivery that is tracked in turn: wait until nothing is left.
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** The newest messages, for the admin viewer. */
export async function latestMail(db: Db, limit = 100): Promise<OutboxRow[]> {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
}
