import { z } from "zod";
import { bytesToHex } from "@/core/crypto/encoding";
import { parsePem } from "@/core/crypto/pem";
import { parseDsn } from "@/core/monitoring/dsn";

/**
 * The configuration schema, without `server-only` so that the HTTP server in src/edge (which runs
 * before, and outside, Next.js) validates its settings with the same rules as the app. `env.ts`
 * is the one place that reads `process.env` for the app.
 *
 * The one place that reads `process.env`. Parsed once, on first use: `instrumentation.ts` calls
 * `getEnv()` when the server starts, so a bad value stops it with a message naming each wrong
 * variable. (It is not parsed at import time because `next build` imports route modules without
 * a database to point at.)
 */
const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((value) => value === "1" || value === "true" || value === "yes");

// An empty variable counts as unset (a blank line in an .env file or a compose file).
const blankAsUnset = (value: unknown) => (value === "" ? undefined : value);
const sampleRate = (fallback: number) =>
  z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: "must be a number from 0 to 1, such as 0.1" })
      .min(0, "must be a number from 0 to 1, such as 0.1")
      .max(1, "must be a number from 0 to 1, such as 0.1")
      .default(fallback),
  );

/** A PEM in an environment variable may arrive with its newlines written as `\n`. */
export function pemFromEnv(value: string): string {
  return value.includes("\\n") ? value.replace(/\\n/g, "\n") : value;
}

// PKCS#8 v1 of an Ed25519 key: SEQUENCE { INTEGER 0, SEQUENCE { OID 1.3.101.112 }, OCTET STRING { 32 bytes } }.
// Checked without node:crypto, since this module is also loaded by the edge instrumentation; the
// key is parsed for real (node:crypto) when it first signs.
const ED25519_PKCS8_PREFIX = "302e020100300506032b657004220420";

function isEd25519Pkcs8(value: string): boolean {
  try {
    const der = parsePem(pemFromEnv(value), ["PRIVATE KEY"]).der;
    return der.length === 48 && bytesToHex(der.subarray(0, 16)) === ED25519_PKCS8_PREFIX;
  } catch {
    return false;
  }
}

const fields = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string({ error: "is required (start the app with `npm start`, which provides one)" })
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL"),
  DATABASE_MODE: z.enum(["embedded", "external"]).default("external"),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  ABACUS_DATA_DIR: z.string().optional(),
  PORT: z.coerce.number({ error: "must be a port number" }).int().min(1).max(65_535).default(3000),
  APP_URL: z.url({ error: "must be an absolute URL such as https://abacus.example.com" }).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL, such as smtps://user:pass@mail.example.com")
    .optional(),
  MAIL_FROM: z.string().default("Abacus <no-reply@abacus.local>"),
  // The seller named on receipts ("Issued by"): who runs this instance.
  SELLER_NAME: z.preprocess(
    blankAsUnset,
    z.string().max(200, "must be at most 200 characters").default("Abacus"),
  ),
  SELLER_ADDRESS: z.preprocess(
    blankAsUnset,
    z.string().max(500, "must be at most 500 characters").optional(),
  ),
  SELLER_CONTACT: z.preprocess(
    blankAsUnset,
    z.string().max(200, "must be at most 200 characters").optional(),
  ),
  SELLER_VAT_ID: z.preprocess(blankAsUnset, z.string().max(40, "must be at most 40 characters").optional()),
  // The seller's country (ISO 3166-1 alpha-2): EU business customers elsewhere in the EU are reverse-charged.
  SELLER_COUNTRY: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^[A-Za-z]{2}$/, "must be a two-letter country code such as DE")
      .transform((code) => code.toUpperCase())
      .optional(),
  ),
  AUTH_SIGN_IN_LIMIT: z.coerce.number().int().min(1).max(100_000).default(10),
  AUTH_SIGN_UP_LIMIT: z.coerce.number().int().min(1).max(100_000).default(10),
  ORGANIZATIONS_PER_USER: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: "must be a whole number from 1 to 1000, such as 5" })
      .int("must be a whole number from 1 to 1000, such as 5")
      .min(1, "must be a whole number from 1 to 1000, such as 5")
      .max(1000, "must be a whole number from 1 to 1000, such as 5")
      .default(5),
  ),
  AUTH_HASH_QUEUE_PER_CLIENT: z.coerce.number().int().min(1).max(1000).default(4),
  MAIL_PER_RECIPIENT_LIMIT: z.coerce.number().int().min(1).max(10_000).default(5),
  MAIL_PER_CLIENT_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  TRUST_PROXY: z.coerce
    .number({ error: "must be the number of reverse proxies in front of the app (0 for none)" })
    .int()
    .min(0)
    .max(10)
    .default(0),
  // Read by the HTTP server (src/edge) before Next.js, through `parseServerEnv` below.
  HOST: z.preprocess(blankAsUnset, z.string().default("0.0.0.0")),
  CLIENT_MAX_ACTIVE: z.coerce.number().int().min(1).max(1000).default(4),
  CLIENT_MAX_QUEUED: z.coerce.number().int().min(0).max(100_000).default(64),
  // src/edge fits the total's default below the open-file limit.
  CLIENT_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(100_000).default(128),
  SERVER_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  CONTACT_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(5),
  PAGE_VIEWS_PER_CLIENT_LIMIT: z.coerce.number().int().min(1).max(100_000).default(120),
  AUTH_SECRET: z
    .string()
    .min(32, "must be at least 32 characters (try `openssl rand -base64 32`)")
    .optional(),
  RECEIPT_SIGNING_KEY: z.preprocess(
    blankAsUnset,
    z
      .string()
      .refine(isEd25519Pkcs8, {
        message:
          "must be an unencrypted Ed25519 private key in PKCS#8 PEM (try `openssl genpkey -algorithm ed25519`)",
      })
      .optional(),
  ),
  STRIPE_SECRET_KEY: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, "must be a Stripe secret key (sk_test_… or sk_live_…)")
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]+$/, "must be a Stripe webhook signing secret (whsec_…)")
      .optional(),
  ),
  VERCEL: bool,
  SENTRY_DSN: z.preprocess(
    blankAsUnset,
    z
      .string()
      .refine((value) => parseDsn(value) !== undefined, {
        message: "must be a Sentry DSN, such as https://<key>@o123.ingest.us.sentry.io/456",
      })
      .optional(),
  ),
  SENTRY_ENVIRONMENT: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be 1 to 64 letters, digits, dots, dashes or underscores")
      .optional(),
  ),
  SENTRY_RELEASE: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^[^\s/\\]{1,200}$/, "must be 1 to 200 characters without spaces or slashes")
      .optional(),
  ),
  SENTRY_TRACES_SAMPLE_RATE: sampleRate(0.1),
  // Server-side request tracing costs every request (Next.js's own spans become real), traced or not.
  SENTRY_SERVER_TRACES_SAMPLE_RATE: sampleRate(0),
  SENTRY_REPLAYS_SESSION_SAMPLE_RATE: sampleRate(0),
  SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE: sampleRate(1),
  // The billing clock (renewals) runs in every app instance; "off" leaves it to other instances.
  BILLING_CLOCK: z.enum(["on", "off"], "must be on or off").default("on"),
  // Tests only. The offline test provider's record of answers by idempotency key, as a JSON-lines
  // file shared by processes (unset: kept in memory); and a crash point right after the provider
  // answers a charge (see `crashAfterCharge` in the billing feature), refused in production.
  TEST_PROVIDER_LEDGER: z.preprocess(blankAsUnset, z.string().max(4096).optional()),
  BILLING_TEST_CRASH: z.preprocess(
    blankAsUnset,
    z
      .enum(
        ["after_checkout_charge", "after_saved_charge"],
        "must be after_checkout_charge or after_saved_charge",
      )
      .optional(),
  ),
  // Graceful shutdown (src/edge): on SIGTERM the instance turns not-ready, stops accepting and
  // waits this long for the requests in flight before it closes what is left and exits.
  SHUTDOWN_TIMEOUT_MS: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: "must be a number of milliseconds from 0 to 600000, such as 10000" })
      .int()
      .min(0)
      .max(600_000)
      .default(10_000),
  ),
  // /metrics (src/edge/metrics.ts) answers only a request with `Authorization: Bearer <this>`;
  // unset, it is off (404).
  METRICS_TOKEN: z.preprocess(
    blankAsUnset,
    z.string().min(16, "must be at least 16 characters (try `openssl rand -hex 24`)").optional(),
  ),
});

const schema = fields.superRefine((value, ctx) => {
  if (value.NODE_ENV !== "test" && value.DATABASE_MODE === "external" && !value.AUTH_SECRET) {
    ctx.addIssue({
      code: "custom",
      path: ["AUTH_SECRET"],
      message: "is required when DATABASE_URL points at your own PostgreSQL server",
    });
  }
  // Several instances on one database must sign with one key; without it each process would make
  // its own (published, so still verifiable, but lost at every restart).
  if (value.NODE_ENV === "production" && value.DATABASE_MODE === "external" && !value.RECEIPT_SIGNING_KEY) {
    ctx.addIssue({
      code: "custom",
      path: ["RECEIPT_SIGNING_KEY"],
      message:
        "is required when DATABASE_URL points at your own PostgreSQL server (every instance must sign receipts with the same key)",
    });
  }
  if (value.NODE_ENV === "production" && value.BILLING_TEST_CRASH) {
    ctx.addIssue({
      code: "custom",
      path: ["BILLING_TEST_CRASH"],
      message: "is for tests only (it kills the process after a payment); unset it in production",
    });
  }
  if (value.STRIPE_SECRET_KEY && !value.STRIPE_WEBHOOK_SECRET) {
    ctx.addIssue({
      code: "custom",
      path: ["STRIPE_WEBHOOK_SECRET"],
      message: "is required with STRIPE_SECRET_KEY (the webhook's signing secret, whsec_…)",
    });
  }
});

export type Env = z.infer<typeof schema>;

const issueLine = (issue: z.core.$ZodIssue) => `  - ${issue.path.join(".") || "(env)"}: ${issue.message}`;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map(issueLine);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

/** The settings the HTTP server (src/edge) reads before Next.js starts: the same rules, a subset. */
const serverFields = fields.pick({
  PORT: true,
  HOST: true,
  APP_URL: true,
  TRUST_PROXY: true,
  CLIENT_MAX_ACTIVE: true,
  CLIENT_MAX_QUEUED: true,
  CLIENT_MAX_CONNECTIONS: true,
  SERVER_MAX_CONNECTIONS: true,
  DATABASE_POOL_SIZE: true,
  SHUTDOWN_TIMEOUT_MS: true,
  METRICS_TOKEN: true,
});

export type ServerEnv = z.infer<typeof serverFields>;

/** The server's settings, or one line per bad variable (as `parseEnv` words them). */
export function parseServerEnv(
  source: Record<string, string | undefined>,
): { env: ServerEnv; errors?: undefined } | { errors: string[]; env?: undefined } {
  const result = serverFields.safeParse(source);
  if (result.success) return { env: result.data };
  return { errors: result.error.issues.map(issueLine) };
}
