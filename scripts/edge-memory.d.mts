import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";

export const MAX_REFUSAL_HOLD_MS: number;
export function refusalKey(req: Pick<IncomingMessage, "method" | "url" | "headers">): string;
export function isAnonymousRead(req: Pick<IncomingMessage, "method" | "headers">): boolean;
export class RefusalMemory {
  constructor(options?: { maxClients?: number; maxPerClient?: number; now?: () => number });
  remember(
    client: string,
    key: string,
    holdMs: number,
    retryAfterSeconds: number,
    answer?: { headers: OutgoingHttpHeaders; body: Buffer },
    rateLimit?: { limit?: string | number; policy?: string },
  ): void;
  refused(client: string, req: Pick<IncomingMessage, "method" | "url" | "headers">): number;
  refusal(
    client: string,
    req: Pick<IncomingMessage, "method" | "url" | "headers">,
  ): {
    retryAfter: number;
    answer?: { headers: OutgoingHttpHeaders; body: Buffer };
    rateLimit?: { limit?: string; policy?: string };
  } | null;
  readonly clients: Map<string, Map<string, unknown>>;
}
export class AnonymousAnswers {
  constructor(options?: { maxEntries?: number; maxBytes?: number; ttlMs?: number; now?: () => number });
  get(url: string): { status: number; headers: OutgoingHttpHeaders; body: Buffer; until: number } | undefined;
  set(url: string, status: number, headers: OutgoingHttpHeaders, body: Buffer): void;
  readonly answers: Map<string, unknown>;
}
