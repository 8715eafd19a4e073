"use client";

import { ChevronsUpDown } from "lucide-react";
import { Popover } from "radix-ui";
import type * as React from "react";
import { lazy, Suspense, useId, useState } from "react";
import { cn } from "@/lib/utils";
import type { ComboboxOption } from "./combobox-rank";
import { controlClass } from "./input";

export type { ComboboxOption };

// The searchable list (cmdk) is fetched when the control is first pointed at, focused or opened, so
// pages with a combobox do not carry it in their first load.
const loadPanel = () => import("./combobox-panel");
const ComboboxPanel = lazy(loadPanel);

/**
 * A searchable list to pick one value from (cmdk in a Radix Popover). The closed control is a
 * button (`role="combobox"`) that a `<label for>` names; opening it moves focus to a search box that
 * filters as you type, arrows move through the matches, Enter picks, Escape closes and returns focus.
 * The number of matches is announced to screen readers.
 */
export function Combobox({
  id,
  value,
  onValueChange,
  options,
  renderValue,
  placeholder = "Choose…",
  searchLabel = "Search",
  searchPlaceholder = "Search…",
  emptyText = "Nothing found.",
  disabled,
  className,
  contentClassName,
  ...aria
}: {
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
}) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const chosen = options.find((o) => o.value === value);

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild disabled={disabled}>
        <button
          type="button"
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-haspopup="listbox"
          aria-controls={open ? listId : undefined}
          onPointerEnter={loadPanel}
          onFocus={loadPanel}
          className={cn(
            controlClass,
            "flex h-10 items-center justify-between gap-2 text-left",
            !chosen && "text-muted-foreground",
            className,
          )}
          {...aria}
        >
          <span className="min-w-0 truncate">
            {chosen ? (renderValue ? renderValue(chosen) : chosen.label) : placeholder}
          </span>
          <ChevronsUpDown className="size-4 shrink-0 opacity-60" aria-hidden />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          collisionPadding={8}
          className={cn(
            "z-50 w-[max(var(--radix-popover-trigger-width),17rem)] max-w-[calc(100vw-1rem)] overflow-hidden rounded-md border border-border bg-popover text-popover-foreground shadow-lg",
            contentClassName,
          )}
        >
          <Suspense
            fallback={<p className="px-3 py-6 text-center text-sm text-muted-foreground">Loading…</p>}
          >
            <ComboboxPanel
              value={value}
              options={options}
              renderValue={renderValue}
              listId={listId}
              searchLabel={searchLabel}
              searchPlaceholder={searchPlaceholder}
              emptyText={emptyText}
              onPick={(v) => {
                onValueChange(v);
                setOpen(false);
              }}
            />
          </Suspense>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
