import type * as React from "react";
import { cn } from "@/lib/utils";
import { controlClass } from "./input-class";

export { Input, Textarea } from "./text-input";
export { controlClass };

export function NativeSelect({ className, ...props }: React.ComponentProps<"select">) {
  return <select className={cn(controlClass, "h-10 pr-8", className)} {...props} />;
}

export function Label({ className, ...props }: React.ComponentProps<"label">) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor
  return <label className={cn("text-sm font-medium leading-none", className)} {...props} />;
}
