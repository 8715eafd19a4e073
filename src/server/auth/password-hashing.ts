import "server-only";
import { availableParallelism } from "node:os";
import { hashPassword, verifyPassword } from "@better-auth/utils/password";

/**
 * Better Auth's own password hashing (scrypt, N=16384, r=16: about 100 ms of CPU and 32 MB each, on
 * libuv's thread pool), with at most `cores - 1` hashes at a time per process (at least one). Four at
 * once, libuv's default, filled both cores of a 2-core machine during a burst of sign-ins (a failed one
 * hashes too), and every other request, `/api/health` included, waited for a core: one client's 8
 * failed sign-ins took health p99 past 200 ms. The rest wait their turn in order; the format is
 * unchanged (`salt:key` in hex), so existing hashes verify.
 */
const MAX_CONCURRENT = Math.max(1, availableParallelism() - 1);

/** Runs the work it is given at most `max` at a time, the rest in order of arrival. */
export function takingTurns(max: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

const inTurn = takingTurns(MAX_CONCURRENT);

export const passwordHashing = {
  hash: (password: string) => inTurn(() => hashPassword(password)),
  verify: ({ hash, password }: { hash: string; password: string }) =>
    inTurn(() => verifyPassword(hash, password)),
};
