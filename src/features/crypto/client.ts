/**
 * The main thread's side of the crypto worker. Quick operations share one long-lived worker; slow or
 * cancellable ones (`dedicated`) get a worker of their own, terminated when they finish or are
 * cancelled, which stops even work that cannot check a signal (WebCrypto PBKDF2, key generation).
 *
 * File hashing (`worker: "hash"`) runs in a small worker of its own (hash.worker.ts: digests only), which
 * the hash tool starts when it opens ({@link warmHashWorker}) so that a run does not wait for a worker to
 * start; it is reused between runs and replaced after a cancel.
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
  /** Run in the warm hash-only worker (the `hash` operation; cancellable). */
  worker?: "hash";
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

  constructor(kind: "crypto" | "hash" = "crypto") {
    // Each `new Worker(new URL(...))` is written out in full: the bundler finds worker entries by this shape.
    this.worker =
      kind === "hash"
        ? new Worker(new URL("./hash.worker.ts", import.meta.url), { type: "module", name: "abacus-hash" })
        : new Worker(new URL("./crypto.worker.ts", import.meta.url), {
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
    if (hashWorker === this) hashWorker = undefined;
  }
}

let shared: WorkerHandle | undefined;
let hashWorker: WorkerHandle | undefined;

/** Starts the hash-only worker ahead of the first file hash (no-op if it runs or workers are off). */
export function warmHashWorker(): void {
  try {
    hashWorker ??= new WorkerHandle("hash");
  } catch {
    // Workers are off: runCrypto reports it when a hash is asked for.
  }
}

/** Stops the hash-only worker when the hash tool closes (unless it is working). */
export function releaseHashWorker(): void {
  if (hashWorker && hashWorker.pending.size === 0) {
    hashWorker.worker.terminate();
    hashWorker = undefined;
  }
}
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
    if (opts.worker === "hash") {
      hashWorker ??= new WorkerHandle("hash");
      handle = hashWorker;
    } else if (opts.dedicated) handle = new WorkerHandle();
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
      if (opts.dedicated || opts.worker === "hash") {
        // Terminating stops the work at once; a fresh hash worker starts for the next file.
        handle.fail(new WorkbenchError(ABORTED, "Cancelled"));
        if (opts.worker === "hash") warmHashWorker();
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
