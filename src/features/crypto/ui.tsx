"use client";

import { Check, Copy, Download, FileUp, Loader2 } from "lucide-react";
import type * as React from "react";
import { useCallback, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FileInput } from "@/components/ui/file-input";
import { Input, Label, Textarea } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";
import { keyFileText } from "@/core/crypto/keyfile";
import { cn } from "@/lib/utils";
import { ABORTED, type CallOptions, runCrypto, WorkbenchError } from "./client";
import { type Option, OUTPUT_OPTIONS } from "./constants";
import { formatBytes, formatLimit, tooLargeMessage } from "./format";
import type { DataSpec, OpArgs, OpName, OpResult, OutputEncoding, TextKind } from "./ops";

// ---- running operations ----------------------------------------------------------------------------

export interface JobState {
  pending: boolean;
  cancellable: boolean;
  progress: { done: number; total: number | undefined } | null;
  startedAt: number;
  cancel: () => void;
}

/** Runs worker operations for one form: pending state, progress, cancel, and cancel on unmount. */
export function useCryptoJob() {
  const [pending, setPending] = useState(false);
  const [cancellable, setCancellable] = useState(false);
  const [progress, setProgress] = useState<JobState["progress"]>(null);
  const [startedAt, setStartedAt] = useState(0);
  const current = useRef<AbortController | null>(null);

  const run = useCallback(
    async <K extends OpName>(
      op: K,
      args: OpArgs<K>,
      opts: Pick<CallOptions, "dedicated" | "worker"> = {},
    ) => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      setPending(true);
      setCancellable(Boolean(opts.dedicated || opts.worker));
      setProgress(null);
      setStartedAt(Date.now());
      try {
        return (await runCrypto(op, args, {
          signal: controller.signal,
          dedicated: opts.dedicated ?? false,
          ...(opts.worker ? { worker: opts.worker } : {}),
          // Drawn at once: the worker sends at most ~20 a second, and a batched update could otherwise be
          // overtaken by the result (a small file's only progress message never showed).
          onProgress: (done, total) => flushSync(() => setProgress({ done, total })),
        })) as OpResult<K>;
      } finally {
        if (current.current === controller) {
          current.current = null;
          setPending(false);
        }
      }
    },
    [],
  );
  const cancel = useCallback(() => current.current?.abort(), []);
  useEffect(() => () => current.current?.abort(), []);
  const state: JobState = { pending, cancellable, progress, startedAt, cancel };
  return { ...state, run, state };
}

export { formatBytes, formatLimit };

export type FieldErrors = Record<string, string | undefined>;

/**
 * Turns a failed operation into inline errors (by field; `form` for the rest) and a toast. A cancel is
 * not an error: it comes back as `notice`, which the run row shows in the ordinary text colour.
 */
export function errorsFrom(error: unknown, fallbackField = "form", { toast = true } = {}): FieldErrors {
  if (error instanceof WorkbenchError) {
    if (error.code === ABORTED) {
      if (toast) notify.info("Cancelled");
      return { notice: "Cancelled. Your inputs are as you left them." };
    }
    if (toast) notify.error(error.message);
    return { [error.field ?? fallbackField]: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (toast) notify.error(message);
  return { form: message };
}

/** Whether a failed run was cancelled (by the person, or by a newer run replacing it). */
export const isAborted = (error: unknown) => error instanceof WorkbenchError && error.code === ABORTED;

type RunFn = ReturnType<typeof useCryptoJob>["run"];

/**
 * The one state/job/error block every tool form shares: inline errors by field, the last result, and
 * `submit`, which clears the previous result and errors (nothing stale stays on screen during a new
 * run), runs the work, announces success with one toast and maps a failure to inline errors.
 */
export function useToolForm<R>() {
  const job = useCryptoJob();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<R | null>(null);

  const submit = useCallback(
    async (work: (run: RunFn) => Promise<R>, success?: string | ((r: R) => string | null)) => {
      setErrors({});
      setResult(null);
      try {
        const r = await work(job.run);
        setResult(r);
        const message = typeof success === "function" ? success(r) : success;
        if (message) notify.success(message);
        return r;
      } catch (err) {
        setErrors(errorsFrom(err));
        return null;
      }
    },
    [job.run],
  );

  /** Props for the form's RunRow. */
  const runRow = { job: job.state, error: errors.form, notice: errors.notice };
  return { job, errors, setErrors, result, setResult, submit, runRow };
}

// ---- layout ----------------------------------------------------------------------------------------

export function ToolHeading({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <div className="mb-3">
      <h3 id={id} className="text-xl font-semibold tracking-tight">
        {title}
      </h3>
      <p className="mt-1 text-sm text-muted-foreground">{children}</p>
    </div>
  );
}

export function SectionHeading({ children }: { children: React.ReactNode }) {
  return <h4 className="text-base font-semibold">{children}</h4>;
}

export function FormGrid({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn("grid gap-x-4 gap-y-1 sm:grid-cols-2", className)} {...props} />;
}

// ---- inputs ----------------------------------------------------------------------------------------

export type { Option };

export function SelectField({
  id,
  label,
  value,
  onChange,
  options,
  groups,
  hint,
  error,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options?: readonly Option[];
  groups?: readonly { label: string; options: readonly Option[] }[];
  hint?: string;
  error?: string | undefined;
  disabled?: boolean;
}) {
  return (
    <Field id={id} label={label} {...(hint ? { hint } : {})} {...(error ? { error } : {})}>
      {(props) => (
        <SimpleSelect
          {...props}
          value={value}
          disabled={disabled}
          onValueChange={onChange}
          options={options ?? groups?.flatMap((g) => g.options) ?? []}
          {...(groups ? { groups } : {})}
        />
      )}
    </Field>
  );
}

/** How a binary result is shown (hex, base64, …): the same choice in every tool that gives bytes. */
export function OutputField({
  id,
  label = "Output",
  value,
  onChange,
}: {
  id: string;
  label?: string;
  value: OutputEncoding;
  onChange: (value: OutputEncoding) => void;
}) {
  return (
    <SelectField
      id={id}
      label={label}
      value={value}
      onChange={(v) => onChange(v as OutputEncoding)}
      options={OUTPUT_OPTIONS}
    />
  );
}

export function TextField({
  id,
  label,
  value,
  onChange,
  hint,
  error,
  type = "text",
  ...rest
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string | undefined;
} & Omit<React.ComponentProps<"input">, "id" | "value" | "onChange">) {
  return (
    <Field id={id} label={label} {...(hint ? { hint } : {})} {...(error ? { error } : {})}>
      {(props) => (
        <Input
          {...props}
          {...rest}
          type={type}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className={cn(type === "number" && "tabular-nums", rest.className)}
        />
      )}
    </Field>
  );
}

/** The most a key/PEM field reads from a file (the inspector's own limit is 1 MiB of DER). */
const PEM_FILE_MAX = 4 * 1024 * 1024;

/**
 * Reads a key/certificate file for a text field: PEM (or any text) as it is, binary DER as base64,
 * which every key input accepts (the decision is `keyFileText`'s).
 */
export async function readKeyFile(file: File): Promise<string> {
  if (file.size > PEM_FILE_MAX) throw new Error(tooLargeMessage(file.name, PEM_FILE_MAX));
  return keyFileText(new Uint8Array(await file.arrayBuffer())).text;
}

/** "Open file" beside a key field: fills it from PEM or DER files, read in the browser only. */
function OpenFileButton({
  id,
  label,
  onText,
  multiple = false,
  onTexts,
}: {
  id: string;
  label: string;
  onText: (text: string) => void;
  /** Take several files at once, handed to `onTexts` (as text: PEM as it is, DER as base64). */
  multiple?: boolean;
  onTexts?: (texts: { name: string; text: string; binary: boolean }[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        id={`${id}-file`}
        type="file"
        hidden
        multiple={multiple}
        accept=".pem,.der,.crt,.cer,.key,.pub,.csr,.req,.p8,.txt,application/x-pem-file,application/pkix-cert"
        onChange={async (e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = "";
          if (!files.length) return;
          try {
            if (onTexts) {
              const texts = await Promise.all(
                files.map(async (file) => {
                  if (file.size > PEM_FILE_MAX) throw new Error(tooLargeMessage(file.name, PEM_FILE_MAX));
                  return { name: file.name, ...keyFileText(new Uint8Array(await file.arrayBuffer())) };
                }),
              );
              onTexts(texts);
            } else {
              onText(await readKeyFile(files[0] as File));
            }
            notify.success(`Read ${files.map((f) => f.name).join(", ")}`);
          } catch (err) {
            notify.error(err instanceof Error ? err.message : String(err));
          }
        }}
      />
      <Button
        type="button"
        variant="outline"
        size="sm"
        // The visible name only: a name holding the field's label would make the label ambiguous.
        title={`Open ${multiple ? "PEM or DER files" : "a PEM or DER file"} for ${label.toLowerCase()}`}
        onClick={() => input.current?.click()}
      >
        <FileUp aria-hidden />
        {multiple ? "Add files" : "Open file"}
      </Button>
    </>
  );
}

/** PEM text for a list of certificate files: PEM as it is, DER (read as base64) armoured. */
export function certificateFilesText(current: string, files: { text: string; binary: boolean }[]): string {
  const blocks = files.map(({ text, binary }) =>
    binary
      ? `-----BEGIN CERTIFICATE-----\n${text.replace(/(.{64})/g, "$1\n").replace(/\n$/, "")}\n-----END CERTIFICATE-----\n`
      : text.endsWith("\n")
        ? text
        : `${text}\n`,
  );
  const head = current.trim() ? `${current.replace(/\s+$/, "")}\n` : "";
  return head + blocks.join("");
}

/** A key/PEM textarea: monospace, no spellcheck, fixed height, and "Open file" for PEM or DER files. */
export function PemField({
  id,
  label,
  value,
  onChange,
  hint,
  error,
  placeholder = "-----BEGIN …-----",
  rows = 6,
  certificates = false,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string | undefined;
  placeholder?: string;
  rows?: number;
  /** A list of certificates: files are added after what is there (several at once), DER as PEM. */
  certificates?: boolean;
}) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="grid gap-2">
      <div className="flex min-h-8 flex-wrap items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        <OpenFileButton
          id={id}
          label={label}
          onText={onChange}
          {...(certificates
            ? { multiple: true, onTexts: (files) => onChange(certificateFilesText(value, files)) }
            : {})}
        />
      </div>
      <Textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        value={value}
        rows={rows}
        placeholder={placeholder}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        autoCorrect="off"
        onChange={(e) => onChange(e.target.value)}
        className="min-h-0 resize-y font-mono text-xs leading-5 sm:text-xs"
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <p id={`${id}-error`} className="min-h-5 text-sm text-destructive" aria-live="polite">
        {error ?? ""}
      </p>
    </div>
  );
}

export interface PrivateKeyValue {
  key: string;
  passphrase: string;
}

export const emptyPrivateKey = (): PrivateKeyValue => ({ key: "", passphrase: "" });

/**
 * A private key and the passphrase that opens it when it is encrypted; errors come back on the
 * `privateKey` and `passphrase` fields (ops.ts maps them so).
 */
export function PrivateKeyFields({
  prefix,
  value,
  onChange,
  errors,
  label = "Private key",
  hint = "PEM (PKCS#8, encrypted PKCS#8, PKCS#1, SEC1, legacy encrypted PEM), base64 or hex DER, or a .der file",
}: {
  prefix: string;
  value: PrivateKeyValue;
  onChange: (value: PrivateKeyValue) => void;
  errors: FieldErrors;
  label?: string;
  hint?: string;
}) {
  return (
    <>
      <PemField
        id={`${prefix}-key`}
        label={label}
        hint={hint}
        value={value.key}
        onChange={(key) => onChange({ ...value, key })}
        error={errors.privateKey}
      />
      <TextField
        id={`${prefix}-passphrase`}
        label="Passphrase (if the key is encrypted)"
        type="password"
        autoComplete="off"
        value={value.passphrase}
        onChange={(passphrase) => onChange({ ...value, passphrase })}
        error={errors.passphrase}
      />
    </>
  );
}

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

// ---- the submit row: button, progress, cancel ----------------------------------------------------

const PROGRESS_THRESHOLD = 1024 * 1024;

export function RunRow({
  job,
  label,
  pendingLabel,
  error,
  notice,
  errorId,
}: {
  job: JobState;
  label: string;
  pendingLabel?: string;
  error?: string | undefined;
  /** A neutral outcome (e.g. "Cancelled"), shown in the ordinary text colour. */
  notice?: string | undefined;
  errorId?: string;
}) {
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (!job.pending) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, [job.pending]);
  const { progress } = job;
  const showBar = job.pending && progress?.total !== undefined && progress.total > PROGRESS_THRESHOLD;
  const percent = showBar && progress?.total ? Math.floor((progress.done / progress.total) * 100) : 0;
  const elapsed = job.pending ? Math.max(0, (now - job.startedAt) / 1000) : 0;
  return (
    <div className="grid gap-2">
      <div className="flex min-h-10 flex-wrap items-center gap-3">
        <Button type="submit" disabled={job.pending} aria-busy={job.pending || undefined}>
          {job.pending ? <Loader2 className="animate-spin" aria-hidden /> : null}
          {job.pending && pendingLabel ? pendingLabel : label}
        </Button>
        {job.pending && job.cancellable ? (
          <Button type="button" variant="outline" onClick={job.cancel}>
            Cancel
          </Button>
        ) : null}
        {showBar && progress?.total ? (
          <div className="flex min-w-40 flex-1 items-center gap-3">
            <progress
              aria-label="Progress"
              value={progress.done}
              max={progress.total}
              className="h-2 flex-1 overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-muted [&::-webkit-progress-value]:bg-primary [&::-moz-progress-bar]:bg-primary"
            />
            <span className="text-sm text-muted-foreground tabular-nums" aria-live="off">
              {percent}% of {formatBytes(progress.total)}
            </span>
          </div>
        ) : job.pending && elapsed >= 0.4 ? (
          <span className="text-sm text-muted-foreground tabular-nums">Working… {elapsed.toFixed(1)} s</span>
        ) : null}
      </div>
      <p
        id={errorId}
        role="status"
        className={cn("min-h-5 text-sm", error ? "text-destructive" : "text-muted-foreground")}
      >
        {error ?? notice ?? ""}
      </p>
    </div>
  );
}

// ---- results ---------------------------------------------------------------------------------------

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
