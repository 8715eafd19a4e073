"use client";

import { useEffect, useRef } from "react";
import { FileInput } from "@/components/ui/file-input";
import { Label, Textarea } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";
import { cn } from "@/lib/utils";
import { formatBytes } from "../format";
import type { DataSpec, TextKind } from "../op-base";

export interface DataValue {
  kind: TextKind | "file";
  text: string;
  file: File | null;
}

export const emptyData = (kind: TextKind = "utf8"): DataValue => ({ kind, text: "", file: null });

const KIND_LABELS: Record<DataValue["kind"], string> = {
  utf8: "Text (UTF-8)",
  hex: "Hex",
  base64: "Base64",
  file: "File",
};

/** The value a worker operation takes; `null` (with an error to show) when a file is missing. */
export function dataSpec(v: DataValue): DataSpec | null {
  if (v.kind === "file") return v.file ? { kind: "file", file: v.file } : null;
  return { kind: v.kind, text: v.text };
}

/** Bytes typed as UTF-8 text, hex or base64, or read from a file; the format is chosen beside the label. */
export function DataField({
  id,
  label,
  value,
  onChange,
  kinds = ["utf8", "hex", "base64", "file"],
  error,
  rows = 4,
  placeholder,
}: {
  id: string;
  label: string;
  value: DataValue;
  onChange: (value: DataValue) => void;
  kinds?: readonly DataValue["kind"][];
  error?: string | undefined;
  rows?: number;
  placeholder?: string;
}) {
  const errorId = `${id}-error`;
  const infoId = `${id}-info`;
  // A file refused (it changed on disk since it was chosen, say) must be choosable again: browsers
  // fire no change event when the same file is picked twice, so the picker's own value is cleared.
  const fileInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (error && fileInput.current) fileInput.current.value = "";
  }, [error]);
  const describedBy = [value.kind === "file" ? infoId : null, error ? errorId : null]
    .filter(Boolean)
    .join(" ");
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <Label htmlFor={id}>{label}</Label>
        <div className="flex items-center gap-2">
          <Label htmlFor={`${id}-kind`} className="font-normal text-muted-foreground">
            Input as
          </Label>
          <SimpleSelect
            id={`${id}-kind`}
            value={value.kind}
            onValueChange={(kind) => onChange({ ...value, kind })}
            options={kinds.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
            className="h-8 w-auto py-0 text-sm"
          />
        </div>
      </div>
      {value.kind === "file" ? (
        <div className="grid gap-2">
          <FileInput
            ref={fileInput}
            id={id}
            fileName={value.file?.name}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy || undefined}
            onFiles={(files) => onChange({ ...value, file: files[0] ?? null })}
          />
          <p id={infoId} className="min-h-5 text-xs text-muted-foreground tabular-nums">
            {value.file
              ? `${value.file.name}: ${formatBytes(value.file.size)}. Read in your browser only.`
              : "Choose a file; it is read in your browser only."}
          </p>
        </div>
      ) : (
        <Textarea
          id={id}
          rows={rows}
          value={value.text}
          placeholder={placeholder ?? (value.kind === "hex" ? "e.g. 48 65 6c 6c 6f" : undefined)}
          spellCheck={value.kind === "utf8" ? undefined : false}
          autoCapitalize="off"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          onChange={(e) => onChange({ ...value, text: e.target.value })}
          className={cn("min-h-0 resize-y", value.kind !== "utf8" && "font-mono text-sm sm:text-sm")}
        />
      )}
      <p id={errorId} className="min-h-5 text-sm text-destructive" aria-live="polite">
        {error ?? ""}
      </p>
    </div>
  );
}
