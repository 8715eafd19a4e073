"use client";

import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { signOutAction } from "@/server/auth/session-actions";
import { refreshViewer } from "./viewer-store";

/** Signs out, then leaves for the home page with a full load so no signed-in state lingers. */
export async function signOutAndLeave() {
  const result = await callAction(() => signOutAction({}));
  if (!result?.ok) return;
  notify.success("Signed out.");
  await refreshViewer();
  window.location.assign("/");
}
