"use client";

import { FileUp } from "lucide-react";
import { useRef } from "react";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { Label, Textarea } from "@/components/ui/input";
import { keyFileText } from "@/core/crypto/keyfile";
import { tooLargeMessage } from "../format";
import { TextField } from "./fields";
import type { FieldErrors } from "./job";

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
 * `privateKey` and `passphrase` fields (op-base.ts `privateKeyFields` maps them so).
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
