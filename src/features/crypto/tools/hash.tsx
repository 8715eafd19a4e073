"use client";

import { type FormEvent, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { HASH_OPTIONS, type HASHES } from "../constants";
import type { OpResult, OutputEncoding } from "../ops";
import {
  DataField,
  type DataValue,
  dataSpec,
  emptyData,
  errorsFrom,
  type FieldErrors,
  FormGrid,
  formatBytes,
  ResultBox,
  RunRow,
  SelectField,
  ToolHeading,
  useCryptoJob,
} from "../ui";

export function HashTool() {
  const [alg, setAlg] = useState<(typeof HASHES)[number]>("SHA-256");
  const [data, setData] = useState<DataValue>(emptyData());
  const [output, setOutput] = useState<OutputEncoding>("hex");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<(OpResult<"hash"> & { alg: string }) | null>(null);
  const job = useCryptoJob();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const spec = dataSpec(data);
    if (!spec) return setErrors({ data: "Choose a file to hash" });
    setErrors({});
    try {
      const r = await job.run("hash", { alg, data: spec, output }, { dedicated: spec.kind === "file" });
      setResult({ ...r, alg });
      notify.success(`${alg} computed`);
    } catch (err) {
      setResult(null);
      setErrors(errorsFrom(err));
    }
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-hash" noValidate className="grid gap-3">
      <ToolHeading id="tool-hash" title="Hash">
        A digest of text, hex, base64 or a file of any size. Files are read in chunks in a background worker,
        so the page stays responsive.
      </ToolHeading>
      <DataField id="hash-data" label="Input" value={data} onChange={setData} error={errors.data} />
      <FormGrid>
        <SelectField
          id="hash-alg"
          label="Algorithm"
          value={alg}
          onChange={(v) => setAlg(v as typeof alg)}
          options={HASH_OPTIONS}
          error={errors.alg}
        />
        <SelectField
          id="hash-output"
          label="Output"
          value={output}
          onChange={(v) => setOutput(v as OutputEncoding)}
          options={[
            { value: "hex", label: "Hex" },
            { value: "base64", label: "Base64" },
          ]}
        />
      </FormGrid>
      <RunRow job={job.state} label="Hash" pendingLabel="Hashing…" error={errors.form} />
      <ResultBox
        id="hash-result"
        label="Digest"
        value={result?.value ?? ""}
        placeholder="Enter some input and press Hash; the digest appears here."
      >
        {result
          ? `${result.alg} of ${formatBytes(result.inputLength)}: ${result.outputLength} bytes (${result.outputLength * 8} bits)`
          : ""}
      </ResultBox>
    </form>
  );
}
