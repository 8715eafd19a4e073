"use client";

import { ChevronsUpDown, Search } from "lucide-react";
import { Popover } from "radix-ui";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { cn } from "@/lib/utils";
import { bestMatch } from "./combobox-rank";
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
  // Letters typed at the closed control start the search; Enter typed after them picks at once.
  const [query, setQuery] = useState(wake.typed ?? "");
  const [typedSeen, setTypedSeen] = useState(wake.typed ?? "");
  if ((wake.typed ?? "") !== typedSeen) {
    setTypedSeen(wake.typed ?? "");
    setQuery((q) => q + (wake.typed ?? "").slice(typedSeen.length));
  }
  const [initial] = useState(() => {
    const pick = wake.enter ? bestMatch(options, wake.typed ?? "") : undefined;
    return { ...wake, pick, open: wake.open && !pick };
  });
  const [open, setOpen] = useState(initial.open && !disabled);
  // Mounted by a pointer passing over the stand-in, then asked to open by a click that reached the
  // stand-in before this replaced it: open now, as that click meant.
  const [openAsked, setOpenAsked] = useState(wake.open);
  if (wake.open !== openAsked) {
    setOpenAsked(wake.open);
    if (wake.open && !disabled) setOpen(true);
  }
  const trigger = useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for how the control was reached for
  useEffect(() => {
    if (initial.pick) onValueChange(initial.pick.value);
    // Opening moves focus into the search box by itself; a closed control takes over the stand-in's focus.
    if (initial.focus && !initial.open) trigger.current?.focus();
  }, [initial]);
  const pick = (v: string) => {
    onValueChange(v);
    setOpen(false);
  };
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
            fallback={
              // The search box is there while the list loads, so nothing typed meanwhile is lost;
              // Enter picks the best match for it, as the list would.
              <div>
                <div className="flex items-center gap-2 border-b border-border px-3">
                  <Search className="size-4 shrink-0 opacity-60" aria-hidden />
                  <input
                    // biome-ignore lint/a11y/noAutofocus: the list was opened to search it
                    autoFocus
                    aria-label={searchLabel}
                    placeholder={searchPlaceholder}
                    value={query}
                    onChange={(e) => setQuery(e.target.value)}
                    onKeyDown={(e) => {
                      if (e.key !== "Enter") return;
                      e.preventDefault();
                      const best = bestMatch(options, query);
                      if (best) pick(best.value);
                    }}
                    autoComplete="off"
                    spellCheck={false}
                    className="h-10 w-full min-w-0 bg-transparent text-base outline-none placeholder:text-muted-foreground sm:text-sm"
                  />
                </div>
                <p className="px-3 py-6 text-center text-sm text-muted-foreground">Loading…</p>
              </div>
            }
          >
            <ComboboxPanel
              value={value}
              options={options}
              renderValue={renderValue}
              listId={listId}
              searchLabel={searchLabel}
              searchPlaceholder={searchPlaceholder}
              emptyText={emptyText}
              search={query}
              onSearchChange={setQuery}
              onPick={pick}
            />
          </Suspense>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
