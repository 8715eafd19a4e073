"use client";

import { useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { copyWithToast } from "@/components/hooks/copy-text";
import { notify } from "@/components/hooks/notify";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { memberRoleOf } from "@/core/auth/roles";
import { cancelInvitationAction } from "./actions";
import { roleLabels, useRefresh } from "./member-roles";

export function PendingInvitations({
  invitations,
  canManage,
}: {
  invitations: { id: string; email: string; role: string; expires: string; link: string }[];
  canManage: boolean;
}) {
  const refresh = useRefresh();
  const [pending, startTransition] = useTransition();
  const [cancelling, setCancelling] = useState<{ id: string; email: string } | null>(null);
  if (invitations.length === 0)
    return <p className="text-sm text-muted-foreground">No pending invitations.</p>;
  const cancel = (inv: { id: string; email: string }) =>
    startTransition(async () => {
      const result = await callAction(() => cancelInvitationAction({ id: inv.id }));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success(`Invitation to ${inv.email} cancelled.`);
      refresh();
    });
  return (
    <>
      <ul className="grid gap-2" aria-label="Pending invitations">
        {invitations.map((inv) => (
          <li
            key={inv.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-border p-3 text-sm"
          >
            <div className="min-w-0">
              <p className="font-medium break-all">{inv.email}</p>
              <p className="text-muted-foreground">
                {roleLabels[memberRoleOf(inv.role)]} · expires {inv.expires}
              </p>
            </div>
            {canManage ? (
              <div className="flex gap-2">
                <Button size="sm" variant="outline" onClick={() => void copyWithToast(inv.link, "link")}>
                  Copy link
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={pending}
                  aria-label={`Cancel the invitation to ${inv.email}`}
                  onClick={() => setCancelling({ id: inv.id, email: inv.email })}
                >
                  Cancel
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => {
          if (!open) setCancelling(null);
        }}
        title={`Cancel the invitation to ${cancelling?.email ?? ""}?`}
        description="The invitation link stops working at once. You can invite this address again later."
        confirmLabel="Cancel invitation"
        cancelLabel="Keep it"
        destructive
        onConfirm={() => {
          if (cancelling) cancel(cancelling);
          setCancelling(null);
        }}
      />
    </>
  );
}
