"use client";

import { Check, Copy, Download } from "lucide-react";
import type * as React from "react";
import { useEffect, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/input";
import { cn } from "@/lib/utils";

async function copyText(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(`${what} copied`);
    return true;
  } catch {
    notify.error("Could not copy: select the text and copy it by hand");
    return false;
  }
}

export function CopyButton({ text, what, disabled }: { text: string; what: string; disabled?: boolean }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={disabled || !text}
      aria-label={`Copy ${what.toLowerCase()}`}
      onClick={async () => setCopied(await copyText(text, what))}
    >
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
      {copied ? "Copied" : "Copy"}
    </Button>
  );
}

function decodeForDownload(text: string, encoding: "hex" | "base64"): Uint8Array<ArrayBuffer> {
  if (encoding === "hex") {
    const clean = text.replace(/\s+/g, "");
    const out = new Uint8Array(clean.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16);
    return out;
  }
  const bin = atob(text.replace(/\s+/g, ""));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

export function DownloadButton({
  text,
  filename,
  what,
  type = "application/x-pem-file",
  binary,
  bytes,
}: {
  text: string;
  filename: string;
  what: string;
  type?: string;
  /** Set when `text` is hex or base64 of bytes: the file holds the bytes (a .sig/.bin OpenSSL reads). */
  binary?: "hex" | "base64" | undefined;
  /** The file's bytes, when they are at hand (then `text` is not used for the body). */
  bytes?: Uint8Array | undefined;
}) {
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={!text && !bytes}
      aria-label={`Download ${what.toLowerCase()} as ${filename}`}
      onClick={() => {
        const body = bytes ? new Uint8Array(bytes) : binary ? decodeForDownload(text, binary) : text;
        const url = URL.createObjectURL(
          new Blob([body], { type: bytes || binary ? "application/octet-stream" : type }),
        );
        const a = document.createElement("a");
        a.href = url;
        a.download = filename;
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
        notify.success(`Saved ${filename}`);
      }}
    >
      <Download aria-hidden />.{filename.split(".").pop()}
    </Button>
  );
}

/**
 * A machine string (hash, key, signature) in a monospace box with a copy button. The box keeps its
 * height whether or not there is a value, so results appearing shift nothing; long values scroll.
 */
export function ResultBox({
  id,
  label,
  value,
  placeholder,
  size = "sm",
  download,
  children,
}: {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  /** sm: a hash or a signature; lg: a PEM key. */
  size?: "sm" | "lg";
  download?: { filename: string; type?: string; binary?: "hex" | "base64"; bytes?: Uint8Array };
  children?: React.ReactNode;
}) {
  return (
    <div className="grid gap-2">
      <div className="flex min-h-8 flex-wrap items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        <div className="flex gap-2">
          <CopyButton text={value} what={label} />
          {download ? (
            <DownloadButton
              text={value}
              what={label}
              filename={download.filename}
              binary={download.binary}
              bytes={download.bytes}
              {...(download.type ? { type: download.type } : {})}
            />
          ) : null}
        </div>
      </div>
      <output
        id={id}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        className={cn(
          "block overflow-auto rounded-md border border-border bg-muted/40 px-3 py-2 font-mono text-sm leading-6 break-all whitespace-pre-wrap tabular-nums focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring",
          size === "sm" ? "h-28" : "h-60 text-xs leading-5",
          !value && "font-sans break-normal text-muted-foreground",
        )}
        aria-live={size === "lg" ? "off" : undefined}
      >
        {value || placeholder}
      </output>
      <div className="min-h-5 text-xs text-muted-foreground tabular-nums">{children}</div>
    </div>
  );
}
