"use client";

import { type FormEvent, useState } from "react";
import { HASH_OPTIONS, type HASHES } from "../../constants";
import type { OutputEncoding } from "../../op-base";
import type { OpResult } from "../../ops";
import { DataField, type DataValue, dataSpec, emptyData } from "../../ui/data-field";
import { OutputField, SelectField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";

export default function Pbkdf2Tool() {
  const [password, setPassword] = useState("");
  const [salt, setSalt] = useState<DataValue>(emptyData("utf8"));
  const [iterations, setIterations] = useState("600000");
  const [length, setLength] = useState("32");
  const [hash, setHash] = useState<(typeof HASHES)[number]>("SHA-256");
  const [output, setOutput] = useState<OutputEncoding>("hex");
  const form = useToolForm<OpResult<"pbkdf2"> & { label: string; output: OutputEncoding }>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const saltSpec = dataSpec(salt);
    if (!saltSpec) return form.setErrors({ salt: "Choose the salt file" });
    const it = Number(iterations.replace(/[\s_,]/g, ""));
    const len = Number(length);
    const bad: Record<string, string> = {};
    if (!/^\d[\d\s_,]*$/.test(iterations.trim()) || !Number.isSafeInteger(it) || it < 1) {
      bad.iterations = "Iterations must be a whole number of at least 1";
    }
    if (!/^\d+$/.test(length.trim()) || len < 1)
      bad.length = "Length must be a whole number of bytes, at least 1";
    if (Object.keys(bad).length) return form.setErrors(bad);
    await form.submit(
      async (run) => ({
        ...(await run(
          "pbkdf2",
          { password, salt: saltSpec, iterations: it, length: len, hash, output },
          { dedicated: true },
        )),
        label: `PBKDF2-HMAC-${hash}, ${it.toLocaleString("en-US")} iterations, ${len} bytes`,
        output,
      }),
      "Key derived",
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-pbkdf2" noValidate className="grid gap-3">
      <ToolHeading id="tool-pbkdf2" title="PBKDF2">
        Password-based key derivation (RFC 8018). It is meant to be slow: 600,000 iterations of HMAC-SHA-256
        is OWASP's current figure. It runs in a background worker and can be cancelled.
      </ToolHeading>
      <TextField
        id="pbkdf2-password"
        label="Password (UTF-8)"
        value={password}
        onChange={setPassword}
        autoComplete="off"
        spellCheck={false}
        error={errors.password}
      />
      <DataField
        id="pbkdf2-salt"
        label="Salt"
        value={salt}
        onChange={setSalt}
        kinds={["utf8", "hex", "base64"]}
        rows={2}
        error={errors.salt}
      />
      <FormGrid className="sm:grid-cols-4">
        <TextField
          id="pbkdf2-iterations"
          label="Iterations"
          value={iterations}
          onChange={setIterations}
          inputMode="numeric"
          error={errors.iterations}
          className="tabular-nums"
        />
        <TextField
          id="pbkdf2-length"
          label="Length (bytes)"
          value={length}
          onChange={setLength}
          inputMode="numeric"
          error={errors.length}
          className="tabular-nums"
        />
        <SelectField
          id="pbkdf2-hash"
          label="Hash"
          value={hash}
          onChange={(v) => setHash(v as typeof hash)}
          options={HASH_OPTIONS}
        />
        <OutputField id="pbkdf2-output" value={output} onChange={setOutput} />
      </FormGrid>
      <RunRow {...form.runRow} label="Derive" pendingLabel="Deriving…" />
      <ResultBox
        id="pbkdf2-result"
        label="Derived key"
        value={result?.value ?? ""}
        download={result ? { filename: "key.bin", binary: result.output } : undefined}
        placeholder="Enter a password and a salt and press Derive; the key appears here."
      >
        {result ? `${result.label}; took ${(result.millis / 1000).toFixed(2)} s` : ""}
      </ResultBox>
    </form>
  );
}
