"use client";

import { type FormEvent, useState } from "react";
import { HASH_OPTIONS, type HASHES } from "../../constants";
import type { OutputEncoding } from "../../op-base";
import { DataField, type DataValue, dataSpec, emptyData } from "../../ui/data-field";
import { OutputField, SelectField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";

type Mode = "extract-and-expand" | "extract" | "expand";

/** HKDF (RFC 5869), as `openssl kdf … HKDF`: extract and expand, or either step alone. */
export default function HkdfTool() {
  const [hash, setHash] = useState<(typeof HASHES)[number]>("SHA-256");
  const [mode, setMode] = useState<Mode>("extract-and-expand");
  const [key, setKey] = useState<DataValue>(emptyData("hex"));
  const [salt, setSalt] = useState<DataValue>(emptyData("hex"));
  // Hex, as the key material and the salt: RFC 5869's vectors (and most specs) give info in hex.
  const [info, setInfo] = useState<DataValue>(emptyData("hex"));
  const [length, setLength] = useState("32");
  const [output, setOutput] = useState<OutputEncoding>("hex");
  const form = useToolForm<{ value: string; length: number; output: OutputEncoding; label: string }>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const k = dataSpec(key);
    const s = dataSpec(salt);
    const i = dataSpec(info);
    if (!k || !s || !i) return form.setErrors({ key: "Choose a file" });
    const len = Number(length);
    if (mode !== "extract" && (!/^\d+$/.test(length.trim()) || len < 1)) {
      return form.setErrors({ length: "Length must be a whole number of bytes, at least 1" });
    }
    await form.submit(
      async (run) => ({
        ...(await run("hkdf", { hash, mode, key: k, salt: s, info: i, length: len, output })),
        output,
        label: `HKDF-${hash}${mode === "extract" ? ", extract only (the PRK)" : mode === "expand" ? ", expand only" : ""}`,
      }),
      "Key derived",
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-hkdf" noValidate className="grid gap-3">
      <ToolHeading id="tool-hkdf" title="HKDF">
        Turns a shared secret or other high-entropy key material into keys (RFC 5869). Use it on what the Key
        agreement tool derives. Not for passwords: use PBKDF2 for those.
      </ToolHeading>
      <DataField
        id="hkdf-key"
        label={mode === "expand" ? "Pseudorandom key (PRK)" : "Input key material"}
        value={key}
        onChange={setKey}
        rows={2}
        error={errors.key}
      />
      <DataField
        id="hkdf-salt"
        label="Salt (optional)"
        value={salt}
        onChange={setSalt}
        kinds={["hex", "utf8", "base64"]}
        rows={1}
        error={errors.salt}
      />
      <DataField
        id="hkdf-info"
        label="Info (optional context)"
        value={info}
        onChange={setInfo}
        kinds={["utf8", "hex", "base64"]}
        rows={1}
        error={errors.info}
      />
      <FormGrid className="sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          id="hkdf-hash"
          label="Hash"
          value={hash}
          onChange={(v) => setHash(v as typeof hash)}
          options={HASH_OPTIONS}
        />
        <SelectField
          id="hkdf-mode"
          label="Mode"
          value={mode}
          onChange={(v) => setMode(v as Mode)}
          options={[
            { value: "extract-and-expand", label: "Extract and expand" },
            { value: "extract", label: "Extract only (PRK)" },
            { value: "expand", label: "Expand only" },
          ]}
        />
        <TextField
          id="hkdf-length"
          label="Length (bytes)"
          inputMode="numeric"
          value={length}
          off={mode === "extract" ? "The hash length" : undefined}
          onChange={setLength}
          error={errors.length}
        />
        <OutputField id="hkdf-output" value={output} onChange={setOutput} />
      </FormGrid>
      <RunRow {...form.runRow} label="Derive" pendingLabel="Deriving…" />
      <ResultBox
        id="hkdf-result"
        label="Output key material"
        value={result?.value ?? ""}
        placeholder="Enter the key material and press Derive; the derived key appears here."
        download={result ? { filename: "hkdf.bin", binary: result.output } : undefined}
      >
        {result ? `${result.label}: ${result.length} bytes` : ""}
      </ResultBox>
    </form>
  );
}
