"use client";

import { type FormEvent, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { OUTPUT_OPTIONS } from "../constants";
import type { OutputEncoding } from "../ops";
import {
  errorsFrom,
  type FieldErrors,
  FormGrid,
  ResultBox,
  RunRow,
  SelectField,
  TextField,
  ToolHeading,
  useCryptoJob,
} from "../ui";

export function RandomTool() {
  const [length, setLength] = useState("32");
  const [output, setOutput] = useState<OutputEncoding>("hex");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<{ value: string; length: number } | null>(null);
  const job = useCryptoJob();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const n = Number(length);
    if (!/^\d+$/.test(length.trim())) return setErrors({ length: "Length must be a whole number of bytes" });
    setErrors({});
    try {
      const r = await job.run("randomBytes", { length: n, output });
      setResult({ value: r.value, length: n });
      notify.success(`${n} random bytes generated`);
    } catch (err) {
      setResult(null);
      setErrors(errorsFrom(err));
    }
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-random" noValidate className="grid gap-3">
      <ToolHeading id="tool-random" title="Random bytes">
        Cryptographically secure random bytes from your browser's generator (
        <code className="font-mono text-[0.9em]">crypto.getRandomValues</code>), for keys, salts and nonces.
      </ToolHeading>
      <FormGrid>
        <TextField
          id="random-length"
          label="Length (bytes)"
          value={length}
          onChange={setLength}
          inputMode="numeric"
          hint="1 to 1,048,576"
          error={errors.length}
          className="tabular-nums"
        />
        <SelectField
          id="random-output"
          label="Output"
          value={output}
          onChange={(v) => setOutput(v as OutputEncoding)}
          options={OUTPUT_OPTIONS}
        />
      </FormGrid>
      <RunRow job={job.state} label="Generate" pendingLabel="Generating…" error={errors.form} />
      <ResultBox
        id="random-result"
        label="Random bytes"
        value={result?.value ?? ""}
        placeholder="Press Generate; the bytes appear here."
      >
        {result ? `${result.length} bytes (${result.length * 8} bits)` : ""}
      </ResultBox>
    </form>
  );
}
