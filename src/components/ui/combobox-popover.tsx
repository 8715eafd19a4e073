"use client";

import { ChevronsUpDown } from "lucide-react";
import { Popover } from "radix-ui";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { cn } from "@/lib/utils";
import { type ComboboxProps, pickerTriggerClass, type Wake } from "./deferred-picker";
import { controlClass } from "./input";

// The searchable list (cmdk) is its own chunk, fetched with this one by `./combobox`.
export const loadPanel = () => import("./combobox-panel");
const ComboboxPanel = lazy(loadPanel);

/**
 * The real `Combobox` (see `./combobox`, which renders the closed control without Radix until a
 * person reaches for it). `wake` says how it was reached for: open it, or hand focus to its trigger.
 */
export default function ComboboxPopover({
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
  wake,
  ...aria
}: ComboboxProps & { wake: Wake }) {
  const [open, setOpen] = useState(wake.open && !disabled);
  const trigger = useRef<HTMLButtonElement>(null);
  const [initial] = useState(wake);
  useEffect(() => {
    // Opening moves focus into the search box by itself; a closed control takes over the stand-in's focus.
    if (initial.focus && !initial.open) trigger.current?.focus();
  }, [initial]);
  const listId = useId();
  const chosen = options.find((o) => o.value === value);

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild disabled={disabled}>
        <button
          ref={trigger}
          type="button"
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-haspopup="listbox"
          aria-controls={open ? listId : undefined}
          className={cn(controlClass, pickerTriggerClass, !chosen && "text-muted-foreground", className)}
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
