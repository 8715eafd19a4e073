"use client";

import { callAction } from "@/components/hooks/call-action";
import { signOutAction } from "@/server/auth/session-actions";
import { setFlash } from "./flash";
import { refreshViewer } from "./viewer-store";

/** Signs out, then leaves for the home page with a full load so no signed-in state lingers. */
export async function signOutAndLeave() {
  const result = await callAction(() => signOutAction({}));
  if (!result?.ok) return;
  // Announced by the page it lands on: a toast here would be lost to the full load.
  setFlash("signed-out");
  await refreshViewer();
  window.location.assign("/");
}
