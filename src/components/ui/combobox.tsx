"use client";

import { ChevronsUpDown } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { cn } from "@/lib/utils";
import type { ComboboxOption } from "./combobox-rank";
import { type ComboboxProps, pickerTriggerClass, useDeferredPicker } from "./deferred-picker";
import { controlClass } from "./input";

export type { ComboboxOption, ComboboxProps };

// The popover (Radix) and its searchable list (cmdk) are fetched when the control is first pointed
// at, focused, pressed or clicked, so pages with a combobox do not carry them in their first load.
const loadPopover = () => import("./combobox-popover");
const loadAll = () => loadPopover().then((m) => m.loadPanel());
const ComboboxPopover = lazy(loadPopover);

/**
 * A searchable list to pick one value from (cmdk in a Radix Popover). The closed control is a
 * button (`role="combobox"`) that a `<label for>` names; opening it moves focus to a search box that
 * filters as you type, arrows move through the matches, Enter picks, Escape closes and returns focus.
 * The number of matches is announced to screen readers.
 *
 * Until a person reaches for it, the closed control is drawn without Radix: the same button with
 * the same role, state and name, which then swaps for the real one and opens if that was asked.
 */
export function Combobox(props: ComboboxProps) {
  const { wake, rouse, standInProps } = useDeferredPicker(loadAll, { typeable: true });
  // What was typed at the stand-in (its state update waits, in a transition, for the code to load),
  // and the same shown in the stand-in meanwhile, so each key visibly lands.
  const typed = useRef("");
  const [shownTyped, setShownTyped] = useState("");
  const { id, value, options, renderValue, placeholder = "Choose…", disabled, className, ...rest } = props;
  const aria = { "aria-invalid": rest["aria-invalid"], "aria-describedby": rest["aria-describedby"] };
  const chosen = options.find((o) => o.value === value);

  const standIn = (
    <button
      type="button"
      id={id}
      role="combobox"
      aria-expanded={false}
      aria-haspopup="listbox"
      data-state="closed"
      disabled={disabled}
      className={cn(controlClass, pickerTriggerClass, !chosen && "text-muted-foreground", className)}
      {...aria}
      {...standInProps}
      onPointerEnter={() => rouse({})}
      onFocus={() => rouse({ focus: true })}
      onBlur={() => rouse({ focus: false })}
      // A click (or Enter/Space, which click a button) opens the popover, as on the real trigger.
      onClick={() => rouse({ open: true, focus: true })}
      onKeyDown={(e) => {
        // Typing at the closed control opens it and searches for what was typed: the letters typed
        // while its code loads are kept for the search box, and Enter then picks the best match.
        if (e.ctrlKey || e.metaKey || e.altKey || e.nativeEvent.isComposing) return rouse({ focus: true });
        if (e.key.length === 1 && e.key !== " ") {
          e.preventDefault();
          typed.current += e.key;
          setShownTyped(typed.current);
          return rouse({ open: true, focus: true, typed: e.key });
        }
        if (e.key === "Enter" && typed.current) {
          e.preventDefault();
          return rouse({ enter: true });
        }
        rouse({ focus: true });
      }}
    >
      {shownTyped ? (
        <span className="min-w-0 truncate text-foreground" data-testid="combobox-typed">
          <span className="text-muted-foreground">Search: </span>
          {shownTyped}
        </span>
      ) : (
        <span className="min-w-0 truncate">
          {chosen ? (renderValue ? renderValue(chosen) : chosen.label) : placeholder}
        </span>
      )}
      <ChevronsUpDown className="size-4 shrink-0 opacity-60" aria-hidden />
    </button>
  );

  return (
    <Suspense fallback={standIn}>{wake ? <ComboboxPopover {...props} wake={wake} /> : standIn}</Suspense>
  );
}
