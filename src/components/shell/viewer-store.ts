"use client";

import { useSyncExternalStore } from "react";

import type { MeSummary } from "@/core/auth/me";

export type { MeSummary };

type State = { status: "loading" } | { status: "signed-out" } | { status: "signed-in"; me: MeSummary };

// One object for "loading", on the server and in the browser: after hydration React compares the
// browser's snapshot with the server's by identity, and a fresh object would re-render every reader.
const LOADING: State = { status: "loading" };
let state: State = LOADING;
const listeners = new Set<() => void>();
let inflight: Promise<void> | null = null;

function set(next: State) {
  state = next;
  for (const listener of listeners) listener();
}

/** Asks the server who is signed in (GET /api/me). Call after signing in or out or switching. */
export function refreshViewer(): Promise<void> {
  inflight ??= fetch("/api/me", { cache: "no-store", credentials: "same-origin" })
    .then(async (response) => {
      const me = response.ok ? ((await response.json()) as MeSummary | null) : null;
      set(me ? { status: "signed-in", me } : { status: "signed-out" });
    })
    .catch(() => set({ status: "signed-out" }))
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

export function useViewer(): State {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      if (state.status === "loading" && !inflight) void refreshViewer();
      return () => listeners.delete(listener);
    },
    () => state,
    () => LOADING,
  );
}
