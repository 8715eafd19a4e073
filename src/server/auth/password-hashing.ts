import "server-only";
import { availableParallelism } from "node:os";
import { tryGetCurrentAuthEndpointContext } from "@better-auth/core/context";
import { hashPassword, verifyPassword } from "@better-auth/utils/password";
import { APIError } from "better-auth/api";
import { clientOf } from "./account-security";

/**
 * Better Auth's own password hashing (scrypt, N=16384, r=16: about 100 ms of CPU and 32 MB each, on
 * libuv's thread pool), with at most `cores - 1` hashes at a time per process (at least one). Four at
 * once, libuv's default, filled both cores of a 2-core machine during a burst of sign-ins (a failed one
 * hashes too), and every other request, `/api/health` included, waited for a core: one client's 8
 * failed sign-ins took health p99 past 200 ms. The format is unchanged (`salt:key` in hex), so
 * existing hashes verify.
 *
 * The hashes waiting for a turn are queued per client (the address of the request Better Auth is
 * serving), as a fair-queuing router treats flows (FQ-CoDel's "new flows first"): a client with
 * nothing queued or running goes before the clients with a backlog, which are served in turn, one
 * hash each. A client keeping many sign-ins in flight (correct ones are never rate-limited) then
 * delays a person signing in by the hash already running, not by its whole queue, as one shared
 * first-come queue did; several such clients share the rest round-robin. A client with
 * `perClientQueue` hashes already queued or running is refused at once (429) instead of being
 * queued deeper.
 */
const MAX_CONCURRENT = Math.max(1, availableParallelism() - 1);

/** Hashes one client may have queued or running at once before it is refused (AuthConfig default). */
export const DEFAULT_HASH_QUEUE_PER_CLIENT = 4;

/** Thrown by `fairTurns` when a client's queue is full. */
export class ClientQueueFull extends Error {
  constructor() {
    super("client queue full");
  }
}

export type FairTurns = {
  /**
   * Runs `work` when a slot is free and it is `client`'s turn: at most `max` at a time overall;
   * clients that had nothing queued or running first (in order of arrival), then the clients with a
   * backlog round-robin (each in its own order of arrival). With `cap`, refuses (ClientQueueFull, in
   * the returned promise) when the client already has `cap` works queued or running.
   */
  run<T>(client: string, work: () => Promise<T>, cap?: number): Promise<T>;
  /** Works queued or running per client (tests, benches). */
  load(client: string): number;
};

export function fairTurns(max: number): FairTurns {
  let running = 0;
  // Clients whose work arrived when they had nothing queued or running: served first, in order.
  const fresh: Array<{ client: string; resume: () => void }> = [];
  // Clients with a backlog and their waiting work, in the order they are served next (a Map keeps
  // insertion order).
  const ring = new Map<string, Array<() => void>>();
  const loads = new Map<string, number>();

  // A finished work hands its slot straight to the next in line, so a newcomer arriving in between
  // cannot take it out of turn.
  const release = () => {
    const next = fresh.shift();
    if (next) {
      next.resume();
      return;
    }
    const first = ring.entries().next();
    if (first.done) {
      running--;
      return;
    }
    const [client, waiters] = first.value;
    const resume = waiters.shift();
    ring.delete(client);
    if (waiters.length > 0) ring.set(client, waiters); // to the back of the ring
    resume?.();
  };

  return {
    async run(client, work, cap) {
      const load = loads.get(client) ?? 0;
      if (cap !== undefined && load >= cap) throw new ClientQueueFull();
      loads.set(client, load + 1);
      try {
        if (running < max) running++;
        else
          await new Promise<void>((resolve) => {
            if (load === 0) fresh.push({ client, resume: resolve });
            else {
              const waiters = ring.get(client);
              if (waiters) waiters.push(resolve);
              else ring.set(client, [resolve]);
            }
          });
        try {
          return await work();
        } finally {
          release();
        }
      } finally {
        const left = (loads.get(client) ?? 1) - 1;
        if (left > 0) loads.set(client, left);
        else loads.delete(client);
      }
    },
    load: (client) => loads.get(client) ?? 0,
  };
}

const holder = globalThis as typeof globalThis & { __abacusHashTurns?: FairTurns };
/** One pool per process: the CPU it protects is the process's. */
holder.__abacusHashTurns ??= fairTurns(MAX_CONCURRENT);
const turns = holder.__abacusHashTurns;

/**
 * The client of the Better Auth endpoint being served (HTTP or `auth.api.*` with the request's
 * headers), or null for work outside any endpoint (scripts, seeding), which is never refused.
 */
function currentClient(): string | null {
  const headers = (tryGetCurrentAuthEndpointContext() as { headers?: Headers } | undefined)?.headers;
  return headers ? clientOf(headers) : null;
}

function inTurn<T>(work: () => Promise<T>, perClientQueue: number): Promise<T> {
  const client = currentClient();
  return turns.run(client ?? "", work, client === null ? undefined : perClientQueue).catch((error) => {
    if (error instanceof ClientQueueFull) {
      throw new APIError(
        "TOO_MANY_REQUESTS",
        {
          message: "Too many sign-ins at once from this network. Please try again in a moment.",
          code: "RATE_LIMITED",
        },
        { "Retry-After": "1" },
      );
    }
    throw error;
  });
}

/** Better Auth's `emailAndPassword.password`, sharing the process's hashing fairly between clients. */
export function passwordHashing(perClientQueue = DEFAULT_HASH_QUEUE_PER_CLIENT) {
  return {
    hash: (password: string) => inTurn(() => hashPassword(password), perClientQueue),
    verify: ({ hash, password }: { hash: string; password: string }) =>
      inTurn(() => verifyPassword(hash, password), perClientQueue),
  };
}
