"use client";

import { Bookmark } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { createContext, type ReactNode, useContext, useId, useState } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { useViewer } from "@/components/shell/viewer-store";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { Notation } from "@/core/decimal";
import type { RoundingMode } from "@/core/rounding";
import { saveCalculationAction } from "./actions";
import { SAVE_LIMITS } from "./limits";

/** What defines a calculation; the server works out its result again from these when saving. */
export type SavableCalculation = {
  mode: "decimal" | "currency";
  expression: string;
  precision: number;
  rounding: RoundingMode;
  notation?: Notation;
};

const NoSessionCookie = createContext(false);

/**
 * Around the calculators on a page whose request had no session cookie (server/auth/session-cookie.ts):
 * that visitor is signed out for sure, so the "Sign in to save" line is drawn with the page rather
 * than after /api/me answers (it was the calculator's largest paint, late by that round trip).
 */
export function SignedOutForSure({ children }: { children: ReactNode }) {
  return <NoSessionCookie.Provider value={true}>{children}</NoSessionCookie.Provider>;
}

/**
 * Save to the active organization's history, with an optional note. Signed-out visitors see a
 * link to sign in instead; nothing is shown while the session is being asked for, unless the
 * request had no session cookie (SignedOutForSure).
 */
export function SaveCalculation({ calculation }: { calculation: SavableCalculation | null }) {
  const known = useContext(NoSessionCookie);
  const stored = useViewer();
  const viewer = stored.status === "loading" && known ? ({ status: "signed-out" } as const) : stored;
  const id = useId();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const [pending, setPending] = useState(false);

  if (viewer.status === "loading") return <div className="h-9" aria-hidden />;
  if (viewer.status === "signed-out") {
    return (
      <p className="text-sm text-muted-foreground">
        <Link className="underline underline-offset-4" href="/sign-in?redirect_url=%2Fcalculator">
          Sign in
        </Link>{" "}
        to save calculations to your organization&apos;s history.
      </p>
    );
  }

  async function save() {
    if (!calculation) return;
    setPending(true);
    const result = await callAction(() => saveCalculationAction({ ...calculation, note }));
    setPending(false);
    if (!result) return;
    if (!result.ok) {
      notify.error(result.error);
      return;
    }
    notify.success(`Saved to ${result.data.organization}'s history.`, {
      label: "Open dashboard",
      onClick: () => router.push("/dashboard"),
    });
    setNote("");
    setOpen(false);
  }

  if (!open) {
    return (
      <Button type="button" variant="outline" size="sm" disabled={!calculation} onClick={() => setOpen(true)}>
        <Bookmark aria-hidden />
        Save
      </Button>
    );
  }
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="grid min-w-48 flex-1 gap-1">
        <label htmlFor={`${id}-note`} className="text-sm font-medium">
          Note (optional)
        </label>
        <Input
          id={`${id}-note`}
          value={note}
          maxLength={SAVE_LIMITS.note}
          onChange={(event) => setNote(event.target.value)}
          placeholder="What is this for?"
          autoFocus
        />
      </div>
      <Button type="submit" size="sm" disabled={!calculation || pending}>
        {pending ? "Saving…" : "Save calculation"}
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
    </form>
  );
}
