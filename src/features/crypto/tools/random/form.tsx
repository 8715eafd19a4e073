"use client";

import { type FormEvent, useState } from "react";
import type { OutputEncoding } from "../../op-base";
import { OutputField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";

export default function RandomTool() {
  const [length, setLength] = useState("32");
  const [output, setOutput] = useState<OutputEncoding>("hex");
  const form = useToolForm<{ value: string; length: number; output: OutputEncoding }>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const n = Number(length);
    if (!/^\d+$/.test(length.trim()))
      return form.setErrors({ length: "Length must be a whole number of bytes" });
    await form.submit(
      async (run) => ({ value: (await run("randomBytes", { length: n, output })).value, length: n, output }),
      `${n} random bytes generated`,
    );
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
        <OutputField id="random-output" value={output} onChange={setOutput} />
      </FormGrid>
      <RunRow {...form.runRow} label="Generate" pendingLabel="Generating…" />
      <ResultBox
        id="random-result"
        label="Random bytes"
        value={result?.value ?? ""}
        download={result ? { filename: "random.bin", binary: result.output } : undefined}
        placeholder="Press Generate; the bytes appear here."
      >
        {result ? `${result.length} bytes (${result.length * 8} bits)` : ""}
      </ResultBox>
    </form>
  );
}
