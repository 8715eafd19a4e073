"use client";

import { ChevronDown } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { cn } from "@/lib/utils";
import { nextByLetter } from "./combobox-rank";
import { pickerTriggerClass, type SimpleSelectProps, useDeferredPicker } from "./deferred-picker";
import { controlClass } from "./input";

// Radix Select is fetched when the control is first pointed at, focused, pressed or clicked, so
// pages with a select do not carry it in their first load (same pattern as `Combobox`).
const loadSelect = () => import("./select-radix");
const RadixSimpleSelect = lazy(loadSelect);

/** The keys that open a closed Radix Select. */
const OPEN_KEYS = [" ", "Enter", "ArrowUp", "ArrowDown"];

export type { SimpleSelectProps };

/**
 * A short list to pick one value from (Radix Select, shadcn style): keyboard and screen-reader
 * behaviour of a native select (typeahead, arrows, Home/End, Escape), drawn in our theme. For long
 * lists a person wants to search, use `Combobox`. `id` and the ARIA props go on the trigger (pass
 * what `Field` hands out, so a `<label for>` names it); `name` adds a hidden field for form posts.
 *
 * Until a person reaches for it, the closed control is drawn without Radix: the same button with
 * the same role, state and name, which then swaps for the real one and opens if that was asked.
 */
export function SimpleSelect<T extends string>(props: SimpleSelectProps<T>) {
  const { wake, rouse, standInProps } = useDeferredPicker(loadSelect);
  const { id, value, options, groups: _groups, placeholder, name, disabled, className, ...aria } = props;
  const chosen = options.find((o) => o.value === value);

  const standIn = (
    <>
      <button
        type="button"
        id={id}
        role="combobox"
        aria-expanded={false}
        aria-haspopup="listbox"
        aria-autocomplete="none"
        dir="ltr"
        data-state="closed"
        disabled={disabled}
        data-disabled={disabled ? "" : undefined}
        data-placeholder={chosen ? undefined : ""}
        className={cn(
          controlClass,
          pickerTriggerClass,
          "data-[placeholder]:text-muted-foreground [&>span]:truncate",
          className,
        )}
        {...aria}
        {...standInProps}
        onPointerEnter={() => rouse({})}
        onFocus={() => rouse({ focus: true })}
        onBlur={() => rouse({ focus: false })}
        onPointerDown={(e) => {
          // Radix opens a select on a mouse press (touch and pen open on the click below).
          if (e.button === 0 && !e.ctrlKey && e.pointerType === "mouse") {
            e.preventDefault();
            rouse({ open: true, focus: true });
          }
        }}
        onClick={() => rouse({ open: true, focus: true })}
        onKeyDown={(e) => {
          if (OPEN_KEYS.includes(e.key)) {
            e.preventDefault();
            rouse({ open: true, focus: true });
            return;
          }
          // Typeahead, as on the real trigger: a letter picks the next option it starts with.
          const match = e.ctrlKey || e.metaKey || e.altKey ? undefined : nextByLetter(options, value, e.key);
          if (match) props.onValueChange(match.value);
          rouse({ focus: true });
        }}
      >
        <span style={{ pointerEvents: "none" }}>{chosen ? chosen.label : (placeholder ?? "")}</span>
        <ChevronDown className="size-4 shrink-0 opacity-60" aria-hidden />
      </button>
      {name ? <input type="hidden" name={name} value={value} /> : null}
    </>
  );

  // `lazy` drops the type parameter; the props are the same object.
  return (
    <Suspense fallback={standIn}>
      {wake ? (
        <RadixSimpleSelect {...(props as unknown as SimpleSelectProps<string>)} wake={wake} />
      ) : (
        standIn
      )}
    </Suspense>
  );
}

/** Radix refuses an item whose value is "": a "none" choice ("Any") is kept under this value. */
const NONE = "\u0000none";

/**
 * A `SimpleSelect` inside a plain form (filters of a GET form): it keeps its own value, starting at
 * `defaultValue`, and posts it under `name`. An option whose value is "" (such as "Any") posts "".
 */
export function FormSelect({
  defaultValue,
  name,
  options,
  ...props
}: Omit<SimpleSelectProps<string>, "value" | "onValueChange" | "name"> & {
  defaultValue: string;
  name: string;
}) {
  const [value, setValue] = useState(defaultValue === "" ? NONE : defaultValue);
  const choices = options.map((o) => (o.value === "" ? { ...o, value: NONE } : o));
  return (
    <>
      <SimpleSelect {...props} value={value} onValueChange={setValue} options={choices} />
      <input type="hidden" name={name} value={value === NONE ? "" : value} />
    </>
  );
}
