/**
 * The main thread's side of the crypto worker. Quick operations share one long-lived worker; slow or
 * cancellable ones (`dedicated`) get a worker of their own, terminated when they finish or are
 * cancelled, which stops even work that cannot check a signal (WebCrypto PBKDF2, key generation).
 *
 * Only types are imported from ops.ts: the crypto libraries load in the worker, never in this chunk.
 */
import type { OpArgs, OpName, OpResult } from "./ops";

export class WorkbenchError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (processed: number, total: number | undefined) => void;
  /** Run in a worker of its own (slow or cancellable work). */
  dedicated?: boolean;
}

type Reply =
  | { id: number; progress: [number, number | undefined] }
  | { id: number; ok: unknown }
  | { id: number; error: { code: string; message: string; field?: string } };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onProgress?: CallOptions["onProgress"];
}

class WorkerHandle {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();

  constructor() {
    this.worker = new Worker(new URL("./crypto.worker.ts", import.meta.url), {
      type: "module",
      name: "abacus-crypto",
    });
    this.worker.onmessage = (event: MessageEvent<Reply>) => {
      const reply = event.data;
      const p = this.pending.get(reply.id);
      if (!p) return;
      if ("progress" in reply) {
        p.onProgress?.(reply.progress[0], reply.progress[1]);
      } else if ("ok" in reply) {
        this.pending.delete(reply.id);
        p.resolve(reply.ok);
      } else {
        this.pending.delete(reply.id);
        p.reject(new WorkbenchError(reply.error.code, reply.error.message, reply.error.field));
      }
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(
        new WorkbenchError(
          "WORKER_FAILED",
          "The crypto worker could not run. Reload the page and try again.",
        ),
      );
    };
  }

  fail(error: WorkbenchError) {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
    this.worker.terminate();
    if (shared === this) shared = undefined;
  }
}

let shared: WorkerHandle | undefined;
let nextId = 1;

export const ABORTED = "ABORTED";

/** Runs an operation of ops.ts in a worker. Rejects with a WorkbenchError. */
export function runCrypto<K extends OpName>(
  op: K,
  args: OpArgs<K>,
  opts: CallOptions = {},
): Promise<OpResult<K>> {
  if (opts.signal?.aborted) return Promise.reject(new WorkbenchError(ABORTED, "Cancelled"));
  let handle: WorkerHandle;
  try {
    if (opts.dedicated) handle = new WorkerHandle();
    else {
      shared ??= new WorkerHandle();
      handle = shared;
    }
  } catch {
    return Promise.reject(
      new WorkbenchError(
        "WORKER_FAILED",
        "This browser cannot start the crypto worker (Web Workers are off).",
      ),
    );
  }
  const id = nextId++;
  return new Promise<OpResult<K>>((resolve, reject) => {
    const onAbort = () => {
      if (!handle.pending.has(id)) return;
      if (opts.dedicated) {
        handle.fail(new WorkbenchError(ABORTED, "Cancelled"));
      } else {
        handle.pending.delete(id);
        handle.worker.postMessage({ id, cancel: true });
        done();
        reject(new WorkbenchError(ABORTED, "Cancelled"));
      }
    };
    const done = () => {
      opts.signal?.removeEventListener("abort", onAbort);
      if (opts.dedicated) handle.worker.terminate();
    };
    handle.pending.set(id, {
      resolve: (v) => {
        done();
        resolve(v as OpResult<K>);
      },
      reject: (e) => {
        done();
        reject(e);
      },
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    handle.worker.postMessage({ id, op, args });
  });
}
