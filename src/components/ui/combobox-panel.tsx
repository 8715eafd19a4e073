"use client";

import { Command, useCommandState } from "cmdk";
import { Check, Search } from "lucide-react";
import type * as React from "react";
import { useLayoutEffect, useRef } from "react";
import { plural } from "@/core/plural";
import { type ComboboxOption, rankOption } from "./combobox-rank";

/** The inside of an open `Combobox`: search box, filtered list, and the match count for screen readers. */
export default function ComboboxPanel({
  value,
  options,
  renderValue,
  listId,
  searchLabel,
  searchPlaceholder,
  emptyText,
  search,
  onSearchChange,
  onPick,
}: {
  value: string;
  options: readonly ComboboxOption[];
  renderValue?: (option: ComboboxOption) => React.ReactNode;
  listId: string;
  searchLabel: string;
  searchPlaceholder: string;
  emptyText: string;
  /** The search (kept by the popover: it may have started before this list loaded). */
  search: string;
  onSearchChange: (search: string) => void;
  onPick: (value: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  // Typing goes on where it was: the caret after what was typed before the list loaded.
  useLayoutEffect(() => {
    const el = input.current;
    if (el) el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  return (
    <Command
      label={searchLabel}
      defaultValue={value || undefined}
      filter={(v, search, keywords) => rankOption(v, search, keywords)}
      loop
    >
      <div className="flex items-center gap-2 border-b border-border px-3">
        <Search className="size-4 shrink-0 opacity-60" aria-hidden />
        {/* Focus goes to the search box: the list was opened to search it, and the panel may mount after
            the popover has placed focus (it is loaded on first use). */}
        <Command.Input
          ref={input}
          value={search}
          onValueChange={onSearchChange}
          autoFocus
          aria-label={searchLabel}
          placeholder={searchPlaceholder}
          className="h-10 w-full min-w-0 bg-transparent text-base outline-none placeholder:text-muted-foreground sm:text-sm"
        />
      </div>
      <Command.List id={listId} className="max-h-[min(18rem,50dvh)] overflow-y-auto overscroll-contain p-1">
        <Command.Empty className="px-2 py-6 text-center text-sm text-muted-foreground">
          {emptyText}
        </Command.Empty>
        {options.map((o) => (
          <Command.Item
            key={o.value}
            value={o.value}
            keywords={[o.label, ...(o.keywords ?? [])]}
            onSelect={() => onPick(o.value)}
            className="relative flex cursor-default select-none items-center gap-2 rounded-sm py-2 pr-8 pl-2 text-sm outline-none data-[selected=true]:bg-muted"
          >
            {renderValue ? renderValue(o) : o.label}
            {o.value === value ? <Check className="absolute right-2 size-4" aria-label="(chosen)" /> : null}
          </Command.Item>
        ))}
      </Command.List>
      <MatchCount />
    </Command>
  );
}

/** Tells screen readers how many options the search leaves. */
function MatchCount() {
  const count = useCommandState((state) => state.filtered.count);
  return (
    <p className="sr-only" aria-live="polite" aria-atomic="true">
      {plural(count, "match", "matches")}
    </p>
  );
}
