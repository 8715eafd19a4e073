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
  /** Print each message to the console (development). */
  log?: boolean;
};

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
      if (options.log) console.info(`[mail] to ${to}: ${message.subject}\n${message.text}\n`);
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
