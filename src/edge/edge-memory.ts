/**
 * What the edge (edge.ts) remembers from the app's answers so that floods of requests whose answer
 * is already known never reach Next.js (a flood of cheap refusals or anonymous session reads cost
 * ~2 ms of Next.js routing, web-stream adaptation and GC each, enough to hold up `/api/health`).
 * The app decides, by standard Cache-Control (src/core/http/edge-contract.ts); the edge is the cache
 * in front of it, for a bounded time and memory, and gives what it repeats an `Age`:
 * - `RefusalMemory`: a 429 marked `private, max-age=N` (keyed on the client alone), for the same
 *   client, method, path and credentials, for at most N seconds (at most 10 s: PostgreSQL decides);
 * - `AnonymousAnswers`: a 200 to a credential-less GET marked `public, s-maxage=N`, for the same
 *   Host and URL, for at most N seconds (and EDGE_ANONYMOUS_TTL_MS).
 */
import { createHash } from "node:crypto";
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import {
  EDGE_ANONYMOUS_TTL_MS,
  EDGE_REFUSAL_MAX_HOLD_MS,
  isCredentialLessRead,
} from "@/core/http/edge-contract";
import { pathOf } from "./request-guard";

/** The longest a refusal is repeated without asking the app (and so PostgreSQL) again. */
export const MAX_REFUSAL_HOLD_MS = EDGE_REFUSAL_MAX_HOLD_MS;

/** Headers never replayed: they belong to one connection or one moment. */
const HOP_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "date", "content-length"]);

/** `headers` (names in any case) without those of HOP_HEADERS and without cookies, names lower-cased. */
export type Headers = Record<string, number | string | string[]>;

/**
 * The directives of a Cache-Control header (RFC 9111 §5.2), names lower-cased: `max-age=10` is
 * ("max-age", "10"), `private` is ("private", true). Quoted values lose their quotes.
 */
export function cacheDirectives(value: unknown): Map<string, string | true> {
  const directives = new Map<string, string | true>();
  const text = Array.isArray(value) ? value.join(",") : typeof value === "string" ? value : "";
  for (const part of text.split(",")) {
    const [name, ...rest] = part.split("=");
    const key = name?.trim().toLowerCase();
    if (!key) continue;
    const argument = rest.join("=").trim();
    directives.set(key, rest.length === 0 ? true : argument.replace(/^"(.*)"$/, "$1"));
  }
  return directives;
}

function replayable(headers: OutgoingHttpHeaders): Headers {
  const kept: Headers = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_HEADERS.has(lower) || lower === "set-cookie") continue;
    kept[lower] = value;
  }
  return kept;
}

/**
 * What a refusal is keyed on besides the client: method, path (not the query) and a digest of the
 * credentials, so a refusal of one API key or session is never repeated for another.
 */
/** The parts of a request the edge memory decides on. */
export type RequestLike = { method?: string; url?: string; headers: IncomingHttpHeaders };

export function refusalKey(req: RequestLike): string {
  const { authorization = "", cookie = "" } = req.headers;
  const credentials =
    authorization || cookie
      ? createHash("sha256").update(`${authorization}\n${cookie}`).digest("base64url")
      : "";
  return `${req.method} ${pathOf(req.url ?? "/")} ${credentials}`;
}

/** A GET with no credentials at all: the only requests an anonymous answer is given to. */
export function isAnonymousRead(req: RequestLike): boolean {
  return isCredentialLessRead({
    method: req.method,
    hasCookie: Boolean(req.headers.cookie),
    hasAuthorization: Boolean(req.headers.authorization),
  });
}

export type RateLimitInfo = { limit?: string; policy?: string };
type KnownRefusal = {
  at: number;
  until: number;
  retryAt: number;
  answer: { headers: Headers; body: Buffer } | undefined;
  rateLimit: RateLimitInfo;
};

export class RefusalMemory {
  readonly maxClients: number;
  readonly maxPerClient: number;
  readonly now: () => number;
  /** client → Map(key → refusal) */
  readonly clients = new Map<string, Map<string, KnownRefusal>>();

  constructor({
    maxClients = 10_000,
    maxPerClient = 16,
    now = () => performance.now(),
  }: { maxClients?: number; maxPerClient?: number; now?: () => number } = {}) {
    this.maxClients = maxClients;
    this.maxPerClient = maxPerClient;
    this.now = now;
  }

  /**
   * The app refused `key` of `client` for `holdMs` more ms, with `retryAfterSeconds` for the client.
   * `answer` (`{ headers, body }`), when given, is the app's own 429, repeated as it is; else
   * `rateLimit` (`{ limit, policy }`: the app's RateLimit-Limit and -Policy, when it sent them) is
   * repeated in the edge's own 429.
   */
  remember(
    client: string,
    key: string,
    holdMs: number,
    retryAfterSeconds: number,
    answer?: { headers: OutgoingHttpHeaders; body: Buffer },
    rateLimit?: { limit?: unknown; policy?: unknown },
  ): void {
    const hold = Math.min(Math.floor(holdMs), MAX_REFUSAL_HOLD_MS);
    if (!(hold > 0)) return;
    const now = this.now();
    let keys = this.clients.get(client);
    if (!keys) {
      if (this.clients.size >= this.maxClients) this.#prune(now);
      keys = new Map();
      this.clients.set(client, keys);
    }
    keys.delete(key);
    const oldest = keys.keys().next().value;
    if (keys.size >= this.maxPerClient && oldest !== undefined) keys.delete(oldest);
    const retryAfterMs = Number.isFinite(retryAfterSeconds) ? retryAfterSeconds * 1000 : hold;
    keys.set(key, {
      at: now,
      until: now + hold,
      retryAt: now + Math.max(hold, retryAfterMs),
      answer: answer ? { headers: replayable(answer.headers), body: answer.body } : undefined,
      rateLimit: {
        limit: rateLimit?.limit === undefined ? undefined : String(rateLimit.limit),
        policy: rateLimit?.policy === undefined ? undefined : String(rateLimit.policy),
      },
    });
  }

  /**
   * Seconds for Retry-After when `req` of `client` is still refused, else 0. Costs one Map lookup
   * for a client with nothing remembered.
   */
  refused(client: string, req: RequestLike): number {
    return this.refusal(client, req)?.retryAfter ?? 0;
  }

  /**
   * The refusal `req` of `client` still gets, or null: `retryAfter` (seconds) and, when the app's
   * answer is to be repeated as it is, `answer` with its headers counted down to now.
   */
  refusal(
    client: string,
    req: RequestLike,
  ): { retryAfter: number; rateLimit?: RateLimitInfo; answer?: { headers: Headers; body: Buffer } } | null {
    const keys = this.clients.get(client);
    if (!keys) return null;
    const key = refusalKey(req);
    const known = keys.get(key);
    if (!known) return null;
    const now = this.now();
    if (known.until <= now) {
      keys.delete(key);
      if (keys.size === 0) this.clients.delete(client);
      return null;
    }
    const retryAfter = Math.max(1, Math.ceil((known.retryAt - now) / 1000));
    if (!known.answer) return { retryAfter, rateLimit: known.rateLimit };
    const headers: Headers = {
      ...known.answer.headers,
      "retry-after": String(retryAfter),
      age: String(Math.floor((now - known.at) / 1000)),
    };
    const reset = Number(headers["ratelimit-reset"]);
    if (Number.isFinite(reset)) {
      headers["ratelimit-reset"] = String(Math.max(1, reset - Math.floor((now - known.at) / 1000)));
    }
    return { retryAfter, answer: { headers, body: known.answer.body } };
  }

  #prune(now: number): void {
    for (const [client, keys] of this.clients) {
      for (const [key, known] of keys) if (known.until <= now) keys.delete(key);
      if (keys.size === 0) this.clients.delete(client);
    }
    // Still full: forget the oldest clients (their requests simply reach the app again).
    for (const client of this.clients.keys()) {
      if (this.clients.size < this.maxClients) break;
      this.clients.delete(client);
    }
  }
}

export type StoredAnswer = { status: number; headers: Headers; body: Buffer; at: number; until: number };

export class AnonymousAnswers {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly ttlMs: number;
  readonly now: () => number;
  /** url → answer */
  readonly answers = new Map<string, StoredAnswer>();

  constructor({
    maxEntries = 32,
    maxBytes = 4096,
    ttlMs = EDGE_ANONYMOUS_TTL_MS,
    now = () => performance.now(),
  }: { maxEntries?: number; maxBytes?: number; ttlMs?: number; now?: () => number } = {}) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.ttlMs = ttlMs;
    this.now = now;
  }

  /** The stored answer for `url` with its `Age`, or undefined. */
  get(url: string): StoredAnswer | undefined {
    const answer = this.answers.get(url);
    if (!answer) return undefined;
    const now = this.now();
    if (answer.until <= now) {
      this.answers.delete(url);
      return undefined;
    }
    return { ...answer, headers: { ...answer.headers, age: String(Math.floor((now - answer.at) / 1000)) } };
  }

  /**
   * Keeps the app's answer for `url` (headers as from `res.getHeaders()`), unless it is too big,
   * encoded for one client (Content-Encoding) or varies, or the table is full (first come; a flood
   * of distinct query strings cannot grow it).
   */
  set(url: string, status: number, headers: OutgoingHttpHeaders, body: Buffer, ttlMs = this.ttlMs): void {
    if (body.length > this.maxBytes || headers["content-encoding"] !== undefined) return;
    const now = this.now();
    if (!this.answers.has(url) && this.answers.size >= this.maxEntries) {
      for (const [key, answer] of this.answers) if (answer.until <= now) this.answers.delete(key);
      if (this.answers.size >= this.maxEntries) return;
    }
    const kept: Headers = {};
    for (const [name, value] of Object.entries(headers)) {
      if (!HOP_HEADERS.has(name) && value !== undefined) kept[name] = value;
    }
    this.answers.set(url, { status, headers: kept, body, at: now, until: now + Math.min(ttlMs, this.ttlMs) });
  }
}
