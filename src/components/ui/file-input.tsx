"use client";

import { FileUp } from "lucide-react";
import type * as React from "react";
import { cn } from "@/lib/utils";
import { buttonVariants } from "./button";

/**
 * A file picker drawn as one of our buttons, with the chosen file's name beside it (the browser's
 * own "Choose File / No file chosen" control cannot be styled). The real `<input type="file">` is
 * still there, visually hidden but focusable, so a `<label for>` names it, Tab reaches it, Space or
 * Enter opens the file dialog, and tests can set files on it; the button look follows its focus.
 */
export function FileInput({
  id,
  fileName,
  buttonLabel = "Choose file",
  className,
  ref,
  ...props
}: Omit<React.ComponentProps<"input">, "type" | "id"> & {
  id: string;
  /** The chosen file's name, or null/undefined when none is chosen. */
  fileName?: string | null;
  buttonLabel?: string;
}) {
  return (
    <div className={cn("flex min-w-0 items-center gap-3", className)}>
      <input ref={ref} id={id} type="file" className="peer sr-only" {...props} />
      <label
        htmlFor={id}
        className={cn(
          buttonVariants({ variant: "outline" }),
          "cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring peer-disabled:pointer-events-none peer-disabled:opacity-50",
        )}
      >
        <FileUp aria-hidden />
        {buttonLabel}
      </label>
      <span
        className={cn("min-w-0 truncate text-sm", fileName ? "text-foreground" : "text-muted-foreground")}
        data-testid="file-input-name"
      >
        {fileName || "No file chosen"}
      </span>
    </div>
  );
}
