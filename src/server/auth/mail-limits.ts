import "server-only";
import { APIError } from "better-auth/api";
import { hashClient } from "../client-identity";
import type { Db } from "../db/client";
import type { Mailer } from "../mail/outbox";
import { consumeRateLimit, limitRequest } from "../rate-limit";
import { clientOf, clientRefusalHeaders } from "./account-security";

/**
 * Limits on the mail anyone can make the instance send, counted in PostgreSQL (rate_limit_events)
 * so they hold across restarts and instances:
 *
 * - per recipient (`limitMailPerRecipient`): at most `perRecipient` requested messages (confirmation
 *   and reset links, "you already have an account", email-change confirmations, invitations) to one
 *   address per hour, and a separate, larger allowance for security notices, so a flood of requested
 *   mail can never crowd out the notice that tells the owner something changed. A message over the
 *   limit is not sent and the request's answer does not change: these mails are written after the
 *   answer (Better Auth's background tasks), and only for addresses that have an account, so a
 *   refusal the caller could see would tell them which addresses exist;
 * - per client (`limitMailRequests`): at most `perClient` requests per hour to the endpoints that
 *   send mail on request, whatever the address and whether or not it has an account, so the 429 is
 *   the same for every address and depends on the client alone.
 */
export type MailLimits = { perRecipient: number; perClient: number };

export const DEFAULT_MAIL_LIMITS: MailLimits = { perRecipient: 5, perClient: 20 };
export const MAIL_WINDOW_SECONDS = 60 * 60;
/** Security notices per address per hour: at least this, and four times `perRecipient`. */
export const SECURITY_NOTICES_PER_HOUR = 20;
const securityNoticeLimit = (limits: MailLimits) =>
  Math.max(SECURITY_NOTICES_PER_HOUR, 4 * limits.perRecipient);

export const MAIL_BUCKETS = {
  recipient: "mail-recipient",
  security: "mail-security",
  client: "mail-client",
} as const;

/** Better Auth endpoints that send a message when asked (per-client limit before they run). */
export const MAIL_REQUEST_PATHS: ReadonlySet<string> = new Set([
  "/request-password-reset",
  "/send-verification-email",
  "/email-confirmation/resend",
  "/change-email",
  "/organization/invite-member",
]);

/** The subject of an address in rate_limit_events: a keyed hash, never the address itself. */
export const recipientSubject = (address: string) => hashClient(`mail:${address.trim().toLowerCase()}`);

/** The mailer, with messages over their recipient's hourly limit dropped (and logged, without the address). */
export function limitMailPerRecipient(db: Db, mailer: Mailer, limits: MailLimits): Mailer {
  return {
    ...mailer,
    async send(to, message) {
      const security = message.kind === "security";
      const rule = security
        ? {
            bucket: MAIL_BUCKETS.security,
            limit: securityNoticeLimit(limits),
            windowSeconds: MAIL_WINDOW_SECONDS,
          }
        : { bucket: MAIL_BUCKETS.recipient, limit: limits.perRecipient, windowSeconds: MAIL_WINDOW_SECONDS };
      const decision = await limitRequest(db, rule, recipientSubject(to));
      if (!decision.allowed) {
        console.warn(`Mail not sent: the recipient's hourly limit is reached (${message.kind}).`);
        return;
      }
      await mailer.send(to, message);
    },
  };
}

/**
 * For `hooks.before`: counts a request to an endpoint that sends mail against its client (HTTP and
 * `auth.api.*` calls with the request's headers alike) and refuses it with 429 beyond the limit.
 */
export async function limitMailRequests(
  db: Db,
  ctx: { path?: string; headers?: Headers },
  limits: MailLimits,
): Promise<void> {
  if (!ctx.path || !MAIL_REQUEST_PATHS.has(ctx.path)) return;
  const decision = await db.transaction((tx) =>
    consumeRateLimit(
      tx,
      { bucket: MAIL_BUCKETS.client, limit: limits.perClient, windowSeconds: MAIL_WINDOW_SECONDS },
      clientOf(ctx.headers),
    ),
  );
  if (decision.allowed) return;
  const minutes = Math.ceil(decision.retryAfterSeconds / 60);
  throw new APIError(
    "TOO_MANY_REQUESTS",
    {
      message: `Too many emails requested from this network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
      code: "RATE_LIMITED",
    },
    // keyed on the client alone: the edge may repeat it while the database's refusal holds
    clientRefusalHeaders(decision.retryAfterSeconds, decision.holdsForMs),
  );
}
