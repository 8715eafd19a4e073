"use client";

import { FileUp } from "lucide-react";
import type * as React from "react";
import { useRef } from "react";
import { cn } from "@/lib/utils";
import { buttonVariants } from "./button";

/**
 * A file picker in our theme. The browser's own control ("Browse…", "Choose File") cannot be styled
 * and reads differently in each browser, so the native input is kept but visually hidden: it still
 * takes focus, is named by a `<label for>` (pass what `Field` hands out), opens the system picker
 * from the keyboard and takes files in tests. Around it: a button-like part, the chosen file's name
 * (or `empty`), and the whole box also takes a file dropped on it.
 */
export function FileInput({
  id,
  fileName,
  onFiles,
  accept,
  multiple,
  buttonLabel = "Choose file",
  empty = "No file chosen",
  className,
  ref,
  ...aria
}: {
  id: string;
  /** What was chosen, shown beside the button. */
  fileName?: string | null;
  onFiles: (files: File[]) => void;
  accept?: string;
  multiple?: boolean;
  buttonLabel?: string;
  empty?: string;
  className?: string;
  ref?: React.Ref<HTMLInputElement>;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}) {
  const input = useRef<HTMLInputElement | null>(null);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the input inside is the control; the box only widens its click and drop target
    // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard users reach the input itself, which opens the picker
    <div
      className={cn(
        "flex min-h-10 cursor-pointer items-center gap-3 rounded-md border border-input bg-background p-1 pr-3 text-sm",
        "focus-within:outline-2 focus-within:outline-offset-1 focus-within:outline-ring",
        "has-[input[aria-invalid=true]]:border-destructive",
        className,
      )}
      onClick={(e) => {
        if (e.target !== input.current) input.current?.click();
      }}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) e.preventDefault();
      }}
      onDrop={(e) => {
        e.preventDefault();
        const files = Array.from(e.dataTransfer.files);
        if (files.length) onFiles(multiple ? files : files.slice(0, 1));
      }}
    >
      <input
        ref={(el) => {
          input.current = el;
          if (typeof ref === "function") ref(el);
          else if (ref) ref.current = el;
        }}
        id={id}
        type="file"
        accept={accept}
        multiple={multiple}
        className="sr-only"
        onChange={(e) => onFiles(Array.from(e.target.files ?? []))}
        {...aria}
      />
      <span aria-hidden className={cn(buttonVariants({ variant: "secondary", size: "sm" }), "shrink-0")}>
        <FileUp aria-hidden />
        {buttonLabel}
      </span>
      <span aria-hidden className={cn("min-w-0 truncate", !fileName && "text-muted-foreground")}>
        {fileName || empty}
      </span>
    </div>
  );
}
