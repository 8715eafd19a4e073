"use client";

import type * as React from "react";
import { startTransition, useCallback, useState } from "react";
import type { ComboboxOption } from "./combobox-rank";
import { AWAKE, EARLY_CLICK, EARLY_CLICKED, EARLY_ENTER, EARLY_TYPE, EARLY_TYPED } from "./early-click";

/**
 * Pickers (Select, Combobox) render their closed control without Radix, and swap in the real one
 * the first time a person points at, focuses, presses a key on or clicks it. `wake` records what
 * they asked for so the real control mounts in that state: open if they asked to open it, focused if
 * the stand-in had focus (the stand-in's node is replaced, so focus has to be handed over).
 * Render the stand-in as both the content and the fallback of one `Suspense` boundary, so the
 * boundary never changes type and the stand-in's node survives until the swap.
 */
export type Wake = {
  open: boolean;
  focus: boolean;
  /** Characters typed at the closed control (a searchable picker starts its search with them). */
  typed?: string;
  /** Enter was pressed after typing: pick the search's best match. */
  enter?: boolean;
};

export function useDeferredPicker(load: () => Promise<unknown>, options: { typeable?: boolean } = {}) {
  const [wake, setWake] = useState<Wake | null>(null);
  const rouse = (ask: Partial<Wake>) => {
    void load();
    // In a transition, so React keeps the stand-in (the same node, keeping focus and the pointer)
    // on screen while the real control loads, and swaps them in one commit once it is ready.
    startTransition(() =>
      setWake((w) => ({
        open: (w?.open ?? false) || (ask.open ?? false),
        focus: ask.focus ?? w?.focus ?? false,
        typed: (w?.typed ?? "") + (ask.typed ?? ""),
        enter: (w?.enter ?? false) || (ask.enter ?? false),
      })),
    );
  };
  // A click that landed on the server-rendered stand-in before hydration (marked by the root
  // layout's early-click script) opens the picker now, as the click would have.
  // A ref callback, called once the stand-in is in the DOM and hydrated (React calls it again only
  // if the node changes, which it does not: the Suspense boundary keeps the stand-in's node).
  // biome-ignore lint/correctness/useExhaustiveDependencies: rouse only schedules state; the first one will do
  const standIn = useCallback((el: HTMLButtonElement | null) => {
    if (!el || el.hasAttribute(AWAKE)) return;
    el.setAttribute(AWAKE, "");
    const typed = el.getAttribute(EARLY_TYPED) ?? "";
    const enter = el.hasAttribute(EARLY_ENTER);
    el.removeAttribute(EARLY_TYPED);
    el.removeAttribute(EARLY_ENTER);
    if (el.hasAttribute(EARLY_CLICKED) || typed) {
      el.removeAttribute(EARLY_CLICKED);
      rouse({ open: true, focus: true, typed, enter });
    }
  }, []);
  /** Spread on the stand-in button. */
  const standInProps = options.typeable
    ? { ref: standIn, [EARLY_CLICK]: "", [EARLY_TYPE]: "" }
    : { ref: standIn, [EARLY_CLICK]: "" };
  return { wake, rouse, standInProps };
}

/**
 * The trigger's look, shared by the stand-in and the real control so nothing shifts when they swap.
 * `min-w-0`: a long choice is truncated instead of widening its grid column past a phone's screen.
 */
export const pickerTriggerClass = "flex h-10 min-w-0 items-center justify-between gap-2 text-left";

/** Props of `SimpleSelect` (./select), shared with its Radix half. */
export type SimpleSelectProps<T extends string> = {
  id: string;
  value: T | "";
  onValueChange: (value: T) => void;
  options: readonly { readonly value: T; readonly label: string }[];
  /** Headings to draw the options under (each option once; `options` still lists them all). */
  groups?: readonly {
    readonly label: string;
    readonly options: readonly { readonly value: T; readonly label: string }[];
  }[];
  placeholder?: string;
  name?: string;
  disabled?: boolean;
  className?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  /** A name for a select without a `<label for>` (a row's control whose column says what it is). */
  "aria-label"?: string;
};

/** Props of `Combobox` (./combobox), shared with its Radix half. */
export type ComboboxProps = {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  options: readonly ComboboxOption[];
  /** What the closed control shows for the chosen option (default: its label). */
  renderValue?: (option: ComboboxOption) => React.ReactNode;
  placeholder?: string;
  searchLabel?: string;
  searchPlaceholder?: string;
  emptyText?: string;
  disabled?: boolean;
  className?: string;
  contentClassName?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
};
