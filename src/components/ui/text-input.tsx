"use client";

import type * as React from "react";
import { useState } from "react";
import { cn } from "@/lib/utils";
import { useEarlyInput } from "./early-input";
import { controlClass } from "./input-class";

/**
 * A text input; text typed before hydration reaches a controlled input's `onChange` (./early-input).
 * A password input gets a Show / Hide button inside its right edge.
 */
export function Input({ className, ref, type, ...props }: React.ComponentProps<"input">) {
  const keep = useEarlyInput<HTMLInputElement>(props.onChange ? props.value : undefined, ref);
  const [shown, setShown] = useState(false);
  if (type !== "password") {
    return <input ref={keep} type={type} className={cn(controlClass, "h-10", className)} {...props} />;
  }
  return (
    <div className="relative">
      <input
        ref={keep}
        type={shown ? "text" : "password"}
        className={cn(controlClass, "h-10 pr-16", className)}
        {...props}
      />
      {/* Named by its text ("Show password"), not aria-label: the field keeps the only label. */}
      <button
        type="button"
        aria-controls={props.id}
        disabled={props.disabled}
        onClick={() => setShown((value) => !value)}
        className="absolute inset-y-1 right-1 rounded px-2.5 text-xs font-medium text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50"
      >
        {shown ? "Hide" : "Show"}
        <span className="sr-only"> password</span>
      </button>
    </div>
  );
}

/** A textarea; text typed before hydration reaches a controlled textarea's `onChange` (./early-input). */
export function Textarea({ className, ref, ...props }: React.ComponentProps<"textarea">) {
  const keep = useEarlyInput<HTMLTextAreaElement>(props.onChange ? props.value : undefined, ref);
  return (
    <textarea ref={keep} className={cn(controlClass, "min-h-32 py-2 leading-6", className)} {...props} />
  );
}
