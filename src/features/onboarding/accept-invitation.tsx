"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { refreshViewer } from "@/components/shell/viewer-store";
import { Button } from "@/components/ui/button";
import { acceptInvitationAction } from "./actions";

/** An invitation link opened by someone who has already finished onboarding. */
export function AcceptInvitation({
  invitation,
}: {
  invitation: { id: string; organizationName: string; role: string; inviterName: string } | null;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  if (!invitation) {
    return (
      <div className="mx-auto grid max-w-lg gap-4 px-4 py-20 text-center">
        <h1 className="text-2xl font-semibold tracking-tight">Invitation not found</h1>
        <p className="text-muted-foreground">
          This invitation has expired, was cancelled, was already used, or was sent to another email address.
        </p>
        <div>
          <Button asChild variant="outline">
            <Link href="/dashboard">Go to the dashboard</Link>
          </Button>
        </div>
      </div>
    );
  }
  function accept() {
    if (!invitation) return;
    startTransition(async () => {
      const result = await callAction(() => acceptInvitationAction({ invitationId: invitation.id }));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success(`You joined ${invitation.organizationName}.`);
      await refreshViewer();
      router.replace("/dashboard");
      router.refresh();
    });
  }
  return (
    <div className="mx-auto grid max-w-lg gap-4 px-4 py-20 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">Join {invitation.organizationName}</h1>
      <p className="text-muted-foreground">
        {invitation.inviterName} invited you to join {invitation.organizationName} as {invitation.role}.
      </p>
      <div>
        <Button onClick={accept} disabled={pending}>
          Join {invitation.organizationName}
        </Button>
      </div>
    </div>
  );
}
