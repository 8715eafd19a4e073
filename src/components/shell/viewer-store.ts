"use client";

import { useSyncExternalStore } from "react";

import type { MeSummary } from "@/core/auth/me";
import { initials, rememberViewer } from "./viewer-hint-client";

export type { MeSummary };

export type ViewerState =
  | { status: "loading" }
  | { status: "signed-out" }
  | { status: "signed-in"; me: MeSummary };

// One object for "loading", on the server and in the browser: after hydration React compares the
// browser's snapshot with the server's by identity, and a fresh object would re-render every reader.
type State = ViewerState;
const LOADING: State = { status: "loading" };
let state: State = LOADING;
const listeners = new Set<() => void>();
let inflight: Promise<void> | null = null;

/**
 * `remember: false` changes what is drawn but not the hint for the next static page: a request that
 * failed or was cut short (the page navigated away mid-fetch) says nothing about who is signed in.
 */
function set(next: State, remember = true) {
  state = next;
  if (!remember) {
    for (const listener of listeners) listener();
    return;
  }
  if (next.status === "signed-in") {
    const { me } = next;
    const active = me.organizations.find((org) => org.id === me.activeOrganizationId);
    rememberViewer({ organization: active?.name ?? "No organization", initials: initials(me.user.name) });
  } else if (next.status === "signed-out") rememberViewer(null);
  for (const listener of listeners) listener();
}

/** No answer: a page still waiting draws the signed-out header, and the hint is kept as it was. */
function unknown() {
  if (state === LOADING) set({ status: "signed-out" }, false);
}

/** Asks the server who is signed in (GET /api/me). Call after signing in or out or switching. */
export function refreshViewer(): Promise<void> {
  inflight ??= fetch("/api/me", { cache: "no-store", credentials: "same-origin" })
    .then(async (response) => {
      // Only an answer decides (null: signed out). A refusal or an outage leaves things as they were.
      if (!response.ok) return unknown();
      const me = (await response.json()) as MeSummary | null;
      set(me ? { status: "signed-in", me } : { status: "signed-out" });
    })
    .catch(unknown)
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

const SIGNED_OUT: State = { status: "signed-out" };
// One state object per summary the server sent, so a re-render compares equal (see LOADING).
const seeds = new WeakMap<MeSummary, State>();
function seed(initial: MeSummary | null | undefined): State {
  if (initial === undefined) return LOADING;
  if (initial === null) return SIGNED_OUT;
  let seeded = seeds.get(initial);
  if (!seeded) {
    seeded = { status: "signed-in", me: initial };
    seeds.set(initial, seeded);
  }
  return seeded;
}

/**
 * Who is signed in. A dynamic page that already knows (the app pages) passes it as `initial`: the
 * server then renders that state, and the browser starts from it without asking /api/me. Static
 * pages pass nothing: "loading" until /api/me answers.
 */
export function useViewer(initial?: MeSummary | null): State {
  const fallback = seed(initial);
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      if (state === LOADING) {
        if (fallback !== LOADING) set(fallback);
        else if (!inflight) void refreshViewer();
      }
      return () => listeners.delete(listener);
    },
    () => (state === LOADING ? fallback : state),
    () => fallback,
  );
}
