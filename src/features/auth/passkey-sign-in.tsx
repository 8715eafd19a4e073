"use client";

import { KeyRound } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { refreshViewer } from "@/components/shell/viewer-store";
import { Button } from "@/components/ui/button";
import { passkeySignInAction, passkeySignInOptionsAction } from "./actions";

/** Signs in with a passkey: the browser part (navigator.credentials) is loaded only when used. */
export function PasskeySignIn({ redirectUrl }: { redirectUrl?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  function signIn() {
    startTransition(async () => {
      const options = await callAction(() => passkeySignInOptionsAction());
      if (!options) return;
      if (!options.ok) return notify.error(options.error);
      const { startAuthentication } = await import("@simplewebauthn/browser");
      let response: unknown;
      try {
        response = await startAuthentication({ optionsJSON: options.data as never });
      } catch {
        return notify.error("No passkey was used. Try again, or sign in with your password.");
      }
      const result = await callAction(() => passkeySignInAction({ response, redirectUrl }));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success("Signed in.");
      void refreshViewer();
      router.replace(result.data.redirectTo);
      router.refresh();
    });
  }
  return (
    <Button
      type="button"
      variant="outline"
      className="w-full"
      onClick={signIn}
      disabled={pending}
      aria-busy={pending || undefined}
    >
      <KeyRound aria-hidden />
      {pending ? "Waiting for your passkey…" : "Use a passkey"}
    </Button>
  );
}
