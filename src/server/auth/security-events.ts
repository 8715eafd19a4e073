import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type securityEventKinds, securityEvents, user } from "../db/schema";
import type { Mailer } from "../mail/outbox";
import { mailTemplates } from "../mail/templates";

export type SecurityEventKind = (typeof securityEventKinds)[number];

export const SECURITY_EVENT_TITLES: Record<SecurityEventKind, string> = {
  "new-device-sign-in": "New sign-in from a device we have not seen",
  "password-changed": "Your password was changed",
  "password-reset": "Your password was reset",
  "email-changed": "Your email address was changed",
  "two-factor-enabled": "Two-factor authentication was turned on",
  "two-factor-disabled": "Two-factor authentication was turned off",
  "passkey-added": "A passkey was added",
  "passkey-removed": "A passkey was removed",
  "email-confirmed": "Your email address was confirmed",
  "first-sign-in": "First sign-in",
};

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * Records a security event for the user and emails them about it (to `notifyEmail` when given,
 * e.g. the old address after an email change), unless `notify` is false.
 */
export async function recordSecurityEvent(
  db: Db,
  mailer: Mailer,
  origin: string,
  event: {
    userId: string;
    kind: SecurityEventKind;
    detail?: string;
    userAgent?: string | null;
    notifyEmail?: string;
    /** Email the user about it (default); `false` only lists it in the profile. */
    notify?: boolean;
  },
): Promise<void> {
  const [row] = await db
    .insert(securityEvents)
    .values({
      userId: event.userId,
      kind: event.kind,
      detail: event.detail ?? null,
      userAgent: event.userAgent?.slice(0, 300) ?? null,
    })
    .returning({ createdAt: securityEvents.createdAt });
  if (event.notify === false) return;
  let to = event.notifyEmail;
  if (!to) {
    const [u] = await db.select({ email: user.email }).from(user).where(eq(user.id, event.userId));
    to = u?.email;
  }
  if (!to || !row) return;
  const device = event.userAgent ? `Device: ${event.userAgent.slice(0, 200)}` : "";
  await mailer.send(
    to,
    mailTemplates.security(origin, {
      title: SECURITY_EVENT_TITLES[event.kind],
      detail: [event.detail, device].filter(Boolean).join(" ") || "No further details.",
      when: `${when.format(row.createdAt)} UTC`,
    }),
  );
}

/** The user's latest security events, newest first. */
export async function listSecurityEvents(db: Db, userId: string, limit = 20) {
  return db
    .select({
      id: securityEvents.id,
      kind: securityEvents.kind,
      detail: securityEvents.detail,
      userAgent: securityEvents.userAgent,
      createdAt: securityEvents.createdAt,
    })
    .from(securityEvents)
    .where(and(eq(securityEvents.userId, userId)))
    .orderBy(desc(securityEvents.createdAt))
    .limit(limit);
}
