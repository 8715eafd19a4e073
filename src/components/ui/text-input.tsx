"use client";

import type * as React from "react";
import { cn } from "@/lib/utils";
import { useEarlyInput } from "./early-input";
import { controlClass } from "./input-class";

/** A text input; text typed before hydration reaches a controlled input's `onChange` (./early-input). */
export function Input({ className, ref, ...props }: React.ComponentProps<"input">) {
  const keep = useEarlyInput<HTMLInputElement>(props.onChange ? props.value : undefined, ref);
  return <input ref={keep} className={cn(controlClass, "h-10", className)} {...props} />;
}

/** A textarea; text typed before hydration reaches a controlled textarea's `onChange` (./early-input). */
export function Textarea({ className, ref, ...props }: React.ComponentProps<"textarea">) {
  const keep = useEarlyInput<HTMLTextAreaElement>(props.onChange ? props.value : undefined, ref);
  return (
    <textarea ref={keep} className={cn(controlClass, "min-h-32 py-2 leading-6", className)} {...props} />
  );
}
