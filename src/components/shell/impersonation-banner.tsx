"use client";

import { useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import type { Result } from "@/core/result";
import { useViewer } from "./viewer-store";

type Stop = (input: Record<string, never>) => Promise<Result<unknown>>;

/**
 * Shown on every page while an admin is impersonating someone, with the one-click way back.
 * The action is passed in (components do not import features).
 */
export function ImpersonationBanner({ stop }: { stop: Stop }) {
  const viewer = useViewer();
  const [pending, start] = useTransition();
  if (viewer.status !== "signed-in" || !viewer.me.impersonating) return null;
  const back = () =>
    start(async () => {
      const r = await callAction(() => stop({}));
      if (!r) return;
      if (!r.ok) {
        notify.error(r.error);
        return;
      }
      window.location.assign("/admin/users");
    });
  return (
    <section aria-label="Impersonation" className="sticky top-0 z-50 bg-amber-300 text-amber-950">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm sm:px-6">
        <p>
          You are impersonating <strong className="break-all">{viewer.me.user.email}</strong>. The session
          ends within an hour.
        </p>
        <button
          type="button"
          onClick={back}
          disabled={pending}
          className="rounded-md bg-amber-950 px-3 py-1.5 font-medium text-amber-50 hover:bg-amber-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-950 disabled:opacity-60"
        >
          Stop impersonating
        </button>
      </div>
    </section>
  );
}
