"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { Label, Textarea } from "@/components/ui/input";
import { cancelPlanAction, downgradePlanAction, keepPlanAction } from "../actions";

type Pending = null | "cancel" | "downgrade";

/**
 * Owners' and admins' plan changes. Cancelling or downgrading asks for confirmation inline first;
 * both take effect at the end of the paid period and can be undone until then.
 */
export function BillingControls({
  plan,
  scheduled,
  periodEnd,
}: {
  plan: "pro" | "team";
  scheduled: "cancel" | "pro" | null;
  periodEnd: string;
}) {
  const router = useRouter();
  const [confirm, setConfirm] = useState<Pending>(null);
  const [pending, startTransition] = useTransition();
  const [reason, setReason] = useState("");
  const [error, setError] = useState("");

  function run(call: () => Promise<{ ok: boolean; error?: string; message?: string }>) {
    startTransition(async () => {
      const result = await callAction(call);
      if (!result) return;
      if (!result.ok) {
        // Shown in the confirmation, which stays open with the reason as typed.
        if (confirm) return setError(result.error ?? "That did not work.");
        return notify.error(result.error ?? "That did not work.");
      }
      notify.success(result.message ?? "Saved.");
      setError("");
      setReason("");
      setConfirm(null);
      router.refresh();
    });
  }

  if (scheduled) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <Button size="sm" variant="outline" disabled={pending} onClick={() => run(() => keepPlanAction({}))}>
          {scheduled === "cancel" ? "Resume" : "Keep"} {plan === "pro" ? "Pro" : "Team"}
        </Button>
      </div>
    );
  }

  if (confirm) {
    return (
      <div
        role="alertdialog"
        aria-labelledby="billing-confirm"
        className="grid gap-3 rounded-md border border-destructive/50 p-4"
      >
        <p id="billing-confirm" className="text-sm">
          {confirm === "cancel"
            ? `Cancel at the end of the period? The organization keeps its plan until ${periodEnd}, then returns to Free.`
            : `Downgrade to Pro at the end of the period? Team stays until ${periodEnd}.`}
        </p>
        {confirm === "cancel" ? (
          <div className="grid gap-2">
            <Label htmlFor="cancel-reason">Why are you cancelling? (optional)</Label>
            <Textarea
              id="cancel-reason"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              maxLength={500}
              rows={2}
            />
          </div>
        ) : null}
        {error ? (
          <p role="status" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="destructive"
            disabled={pending}
            onClick={() =>
              run(() =>
                confirm === "cancel"
                  ? cancelPlanAction(reason.trim() ? { reason: reason.trim() } : {})
                  : downgradePlanAction({ plan: "pro" }),
              )
            }
          >
            {confirm === "cancel" ? "Yes, cancel at period end" : "Yes, downgrade to Pro"}
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={pending}
            onClick={() => {
              setConfirm(null);
              setError("");
            }}
          >
            No, keep it
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="flex flex-wrap gap-2">
      {plan === "team" ? (
        <Button size="sm" variant="outline" onClick={() => setConfirm("downgrade")}>
          Downgrade to Pro…
        </Button>
      ) : null}
      <Button size="sm" variant="outline" onClick={() => setConfirm("cancel")}>
        Cancel at period end…
      </Button>
    </div>
  );
}
