import { useCallback, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { notify } from "@/components/hooks/notify";
import { ABORTED, type CallOptions, runCrypto, WorkbenchError } from "../client";
import type { OpArgs, OpName, OpResult } from "../ops";

export interface JobState {
  pending: boolean;
  cancellable: boolean;
  progress: { done: number; total: number | undefined } | null;
  startedAt: number;
  cancel: () => void;
}

/** Runs worker operations for one form: pending state, progress, cancel, and cancel on unmount. */
export function useCryptoJob() {
  const [pending, setPending] = useState(false);
  const [cancellable, setCancellable] = useState(false);
  const [progress, setProgress] = useState<JobState["progress"]>(null);
  const [startedAt, setStartedAt] = useState(0);
  const current = useRef<AbortController | null>(null);

  const run = useCallback(
    async <K extends OpName>(
      op: K,
      args: OpArgs<K>,
      opts: Pick<CallOptions, "dedicated" | "worker"> = {},
    ) => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      setPending(true);
      setCancellable(Boolean(opts.dedicated || opts.worker));
      setProgress(null);
      setStartedAt(Date.now());
      try {
        return (await runCrypto(op, args, {
          signal: controller.signal,
          dedicated: opts.dedicated ?? false,
          ...(opts.worker ? { worker: opts.worker } : {}),
          // Drawn at once: the worker sends at most ~20 a second, and a batched update could otherwise be
          // overtaken by the result (a small file's only progress message never showed).
          onProgress: (done, total) => flushSync(() => setProgress({ done, total })),
        })) as OpResult<K>;
      } finally {
        if (current.current === controller) {
          current.current = null;
          setPending(false);
        }
      }
    },
    [],
  );
  const cancel = useCallback(() => current.current?.abort(), []);
  useEffect(() => () => current.current?.abort(), []);
  const state: JobState = { pending, cancellable, progress, startedAt, cancel };
  return { ...state, run, state };
}

export type FieldErrors = Record<string, string | undefined>;

/**
 * Turns a failed operation into inline errors (by field; `form` for the rest) and a toast. A cancel is
 * not an error: it comes back as `notice`, which the run row shows in the ordinary text colour.
 */
export function errorsFrom(error: unknown, fallbackField = "form", { toast = true } = {}): FieldErrors {
  if (error instanceof WorkbenchError) {
    if (error.code === ABORTED) {
      if (toast) notify.info("Cancelled");
      return { notice: "Cancelled. Your inputs are as you left them." };
    }
    if (toast) notify.error(error.message);
    return { [error.field ?? fallbackField]: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (toast) notify.error(message);
  return { form: message };
}

/** Whether a failed run was cancelled (by the person, or by a newer run replacing it). */
export const isAborted = (error: unknown) => error instanceof WorkbenchError && error.code === ABORTED;

type RunFn = ReturnType<typeof useCryptoJob>["run"];

/**
 * The one state/job/error block every tool form shares: inline errors by field, the last result, and
 * `submit`, which clears the previous result and errors (nothing stale stays on screen during a new
 * run), runs the work, announces success with one toast and maps a failure to inline errors.
 */
export function useToolForm<R>() {
  const job = useCryptoJob();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<R | null>(null);

  const submit = useCallback(
    async (work: (run: RunFn) => Promise<R>, success?: string | ((r: R) => string | null)) => {
      setErrors({});
      setResult(null);
      try {
        const r = await work(job.run);
        setResult(r);
        const message = typeof success === "function" ? success(r) : success;
        if (message) notify.success(message);
        return r;
      } catch (err) {
        setErrors(errorsFrom(err));
        return null;
      }
    },
    [job.run],
  );

  /** Props for the form's RunRow. */
  const runRow = { job: job.state, error: errors.form, notice: errors.notice };
  return { job, errors, setErrors, result, setResult, submit, runRow };
}
