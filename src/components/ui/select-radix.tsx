"use client";

import { Check, ChevronDown } from "lucide-react";
import { Select as S } from "radix-ui";
import type * as React from "react";
import { useEffect, useRef, useState } from "react";
import { cn } from "@/lib/utils";
import { pickerTriggerClass, type SimpleSelectProps, type Wake } from "./deferred-picker";
import { controlClass } from "./input";

/**
 * A short list to pick one value from (Radix Select, shadcn style): keyboard and screen-reader
 * behaviour of a native select (typeahead, arrows, Home/End, Escape), drawn in our theme. For long
 * lists a person wants to search, use `Combobox`. Import these parts only from a lazily loaded
 * module: pages use `SimpleSelect` from `./select`, which keeps Radix out of their first load.
 */
export const Select = S.Root;
export const SelectValue = S.Value;
export const SelectGroup = S.Group;

/** The closed control. Takes the `id` and ARIA props `Field` hands out, so a `<label for>` names it. */
export function SelectTrigger({ className, children, ...props }: React.ComponentProps<typeof S.Trigger>) {
  return (
    <S.Trigger
      aria-haspopup="listbox"
      className={cn(
        controlClass,
        pickerTriggerClass,
        "data-[placeholder]:text-muted-foreground [&>span]:truncate",
        className,
      )}
      {...props}
    >
      {children}
      <S.Icon asChild>
        <ChevronDown className="size-4 shrink-0 opacity-60" aria-hidden />
      </S.Icon>
    </S.Trigger>
  );
}

export function SelectContent({
  className,
  children,
  position = "popper",
  ...props
}: React.ComponentProps<typeof S.Content>) {
  return (
    <S.Portal>
      <S.Content
        position={position}
        sideOffset={4}
        className={cn(
          "relative z-50 max-h-[min(var(--radix-select-content-available-height),24rem)] min-w-[var(--radix-select-trigger-width)] max-w-[calc(100vw-1rem)] overflow-hidden rounded-md border border-border bg-popover text-popover-foreground shadow-lg",
          className,
        )}
        {...props}
      >
        <S.Viewport className="p-1">{children}</S.Viewport>
      </S.Content>
    </S.Portal>
  );
}

export function SelectItem({ className, children, ...props }: React.ComponentProps<typeof S.Item>) {
  return (
    <S.Item
      className={cn(
        "relative flex w-full cursor-default select-none items-center rounded-sm py-2 pr-8 pl-2 text-sm outline-none data-[highlighted]:bg-muted data-[disabled]:pointer-events-none data-[disabled]:opacity-50",
        className,
      )}
      {...props}
    >
      <S.ItemText>{children}</S.ItemText>
      <S.ItemIndicator className="absolute right-2 inline-flex items-center">
        <Check className="size-4" aria-hidden />
      </S.ItemIndicator>
    </S.Item>
  );
}

/**
 * The real `SimpleSelect` (see `./select.tsx`, which renders the closed control without Radix until
 * a person reaches for it). `wake` says how it was reached for: open it, or hand focus to its trigger.
 */
export default function RadixSimpleSelect<T extends string>({
  id,
  value,
  onValueChange,
  options,
  groups,
  placeholder,
  name,
  disabled,
  className,
  wake,
  ...aria
}: SimpleSelectProps<T> & { wake: Wake }) {
  const [open, setOpen] = useState(wake.open && !disabled);
  const trigger = useRef<HTMLButtonElement>(null);
  const [initial] = useState(wake);
  useEffect(() => {
    // Opening moves focus into the list by itself; a closed control takes over the stand-in's focus.
    if (initial.focus && !initial.open) trigger.current?.focus();
  }, [initial]);
  return (
    <Select
      open={open}
      onOpenChange={setOpen}
      value={value}
      onValueChange={(v) => onValueChange(v as T)}
      name={name}
      disabled={disabled}
    >
      <SelectTrigger ref={trigger} id={id} className={className} {...aria}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {groups
          ? groups.map((g) => (
              <SelectGroup key={g.label}>
                <S.Label className="px-2 pt-2 pb-1 text-xs font-medium text-muted-foreground">
                  {g.label}
                </S.Label>
                {g.options.map((o) => (
                  <SelectItem key={o.value} value={o.value}>
                    {o.label}
                  </SelectItem>
                ))}
              </SelectGroup>
            ))
          : options.map((o) => (
              <SelectItem key={o.value} value={o.value}>
                {o.label}
              </SelectItem>
            ))}
      </SelectContent>
    </Select>
  );
}
