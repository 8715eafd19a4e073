"use client";

import { Check, ChevronDown } from "lucide-react";
import { Select as S } from "radix-ui";
import type * as React from "react";
import { cn } from "@/lib/utils";
import { controlClass } from "./input";

/**
 * A short list to pick one value from (Radix Select, shadcn style): keyboard and screen-reader
 * behaviour of a native select (typeahead, arrows, Home/End, Escape), drawn in our theme. For long
 * lists a person wants to search, use `Combobox`.
 */
export const Select = S.Root;
export const SelectValue = S.Value;
export const SelectGroup = S.Group;

/** The closed control. Takes the `id` and ARIA props `Field` hands out, so a `<label for>` names it. */
export function SelectTrigger({ className, children, ...props }: React.ComponentProps<typeof S.Trigger>) {
  return (
    <S.Trigger
      className={cn(
        controlClass,
        "flex h-10 items-center justify-between gap-2 text-left data-[placeholder]:text-muted-foreground [&>span]:truncate",
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
 * The usual case in one element: a labelled list of options. `id` and the ARIA props go on the
 * trigger (pass what `Field` hands out); `name` adds a hidden native select for plain form posts.
 */
export function SimpleSelect<T extends string>({
  id,
  value,
  onValueChange,
  options,
  placeholder,
  name,
  disabled,
  className,
  ...aria
}: {
  id: string;
  value: T | "";
  onValueChange: (value: T) => void;
  options: readonly { readonly value: T; readonly label: string }[];
  placeholder?: string;
  name?: string;
  disabled?: boolean;
  className?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}) {
  return (
    <Select value={value} onValueChange={(v) => onValueChange(v as T)} name={name} disabled={disabled}>
      <SelectTrigger id={id} className={className} {...aria}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
