"use client";

import { Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { formatBytes } from "../format";
import type { JobState } from "./job";

const PROGRESS_THRESHOLD = 1024 * 1024;

export function RunRow({
  job,
  label,
  pendingLabel,
  error,
  notice,
  errorId,
}: {
  job: JobState;
  label: string;
  pendingLabel?: string;
  error?: string | undefined;
  /** A neutral outcome (e.g. "Cancelled"), shown in the ordinary text colour. */
  notice?: string | undefined;
  errorId?: string;
}) {
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (!job.pending) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, [job.pending]);
  const { progress } = job;
  const showBar = job.pending && progress?.total !== undefined && progress.total > PROGRESS_THRESHOLD;
  const percent = showBar && progress?.total ? Math.floor((progress.done / progress.total) * 100) : 0;
  const elapsed = job.pending ? Math.max(0, (now - job.startedAt) / 1000) : 0;
  return (
    <div className="grid gap-2">
      <div className="flex min-h-10 flex-wrap items-center gap-3">
        <Button type="submit" disabled={job.pending} aria-busy={job.pending || undefined}>
          {job.pending ? <Loader2 className="animate-spin" aria-hidden /> : null}
          {job.pending && pendingLabel ? pendingLabel : label}
        </Button>
        {job.pending && job.cancellable ? (
          <Button type="button" variant="outline" onClick={job.cancel}>
            Cancel
          </Button>
        ) : null}
        {showBar && progress?.total ? (
          <div className="flex min-w-40 flex-1 items-center gap-3">
            <progress
              aria-label="Progress"
              value={progress.done}
              max={progress.total}
              className="h-2 flex-1 overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-muted [&::-webkit-progress-value]:bg-primary [&::-moz-progress-bar]:bg-primary"
            />
            <span className="text-sm text-muted-foreground tabular-nums" aria-live="off">
              {percent}% of {formatBytes(progress.total)}
            </span>
          </div>
        ) : job.pending && elapsed >= 0.4 ? (
          <span className="text-sm text-muted-foreground tabular-nums">Working… {elapsed.toFixed(1)} s</span>
        ) : null}
      </div>
      <p
        id={errorId}
        role="status"
        className={cn("min-h-5 text-sm", error ? "text-destructive" : "text-muted-foreground")}
      >
        {error ?? notice ?? ""}
      </p>
    </div>
  );
}
