/**
 * The worker side of the protocol client.ts speaks, shared by crypto.worker.ts (every operation) and
 * hash.worker.ts (file hashing only):
 *   in:  { id, op, args }            | { id, cancel: true }
 *   out: { id, progress: [done, total] } | { id, ok: result } | { id, error: { code, message, field } }
 * A cancel aborts operations that check an AbortSignal (streaming hashes); the client terminates the
 * worker for the rest.
 */
import { CryptoInputError } from "@/core/crypto/errors";
import { FieldError } from "./op-base";

// The project compiles with the DOM lib; this is the part of the worker scope used here.
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<Request>) => void) | null;
  postMessage(message: unknown): void;
};

type Request = { id: number; op: string; args: unknown } | { id: number; cancel: true };

type Op = (
  a: unknown,
  ctx: { signal: AbortSignal; progress: (done: number, total?: number) => void },
) => unknown;

export function serve(ops: Record<string, unknown>): void {
  const running = new Map<number, AbortController>();
  scope.onmessage = async (event: MessageEvent<Request>) => {
    const msg = event.data;
    if ("cancel" in msg) {
      running.get(msg.id)?.abort();
      return;
    }
    const { id, op, args } = msg;
    const controller = new AbortController();
    running.set(id, controller);
    let last = 0;
    const progress = (done: number, total: number | undefined) => {
      const now = performance.now();
      // At most ~20 messages a second, and always the last one.
      if (now - last < 50 && done !== total) return;
      last = now;
      scope.postMessage({ id, progress: [done, total] });
    };
    try {
      const fn = ops[op] as Op | undefined;
      if (typeof fn !== "function") throw new Error(`Unknown operation ${op}`);
      const result = await fn(args, { signal: controller.signal, progress });
      scope.postMessage({ id, ok: result });
    } catch (e) {
      const error =
        e instanceof FieldError
          ? { code: e.code, message: e.message, field: e.field }
          : e instanceof CryptoInputError
            ? { code: e.code, message: e.message }
            : { code: "INTERNAL", message: e instanceof Error ? e.message : String(e) };
      scope.postMessage({ id, error });
    } finally {
      running.delete(id);
    }
  };
}
