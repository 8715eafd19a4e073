"use client";

import { useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { setFlash } from "@/components/shell/flash";
import { refreshViewer } from "@/components/shell/viewer-store";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogFooter,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { leaveOrganizationAction } from "./actions";

/**
 * Leaving asks first. A sole owner cannot leave (the server refuses too): the button is disabled
 * up front and says why, instead of refusing after the confirmation.
 */
export function LeaveOrganization({ name, soleOwner = false }: { name: string; soleOwner?: boolean }) {
  const [pending, startTransition] = useTransition();
  function leave() {
    startTransition(async () => {
      const result = await callAction(() => leaveOrganizationAction({}));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      setFlash("org-left");
      await refreshViewer();
      window.location.assign("/organization-profile");
    });
  }
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        You will lose access to {name}'s history, billing and keys.
      </p>
      {soleOwner ? (
        <p id="leave-blocked" className="text-sm">
          You are the only owner of {name}. Make another member an owner first, or delete the organization.
        </p>
      ) : null}
      <div>
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button
              variant="outline"
              disabled={pending || soleOwner}
              aria-describedby={soleOwner ? "leave-blocked" : undefined}
            >
              Leave organization
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent
            title={`Leave ${name}?`}
            description={`You lose access to ${name}'s history, billing and keys at once. To come back, someone must invite you again.`}
          >
            <AlertDialogFooter>
              <AlertDialogCancel />
              <AlertDialogAction destructive onClick={leave}>
                Leave organization
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </div>
  );
}
