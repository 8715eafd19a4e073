"use client";

import { type FormEvent, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { HASH_OPTIONS, type HASHES, OUTPUT_OPTIONS } from "../constants";
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

export function HmacTool() {
  const [alg, setAlg] = useState<(typeof HASHES)[number]>("SHA-256");
  const [key, setKey] = useState<DataValue>(emptyData("hex"));
  const [data, setData] = useState<DataValue>(emptyData());
  const [output, setOutput] = useState<OutputEncoding>("hex");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<(OpResult<"hmac"> & { alg: string }) | null>(null);
  const job = useCryptoJob();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const keySpec = dataSpec(key);
    const spec = dataSpec(data);
    if (!keySpec || !spec) return setErrors({ data: "Choose a file" });
    setErrors({});
    try {
      const r = await job.run(
        "hmac",
        { alg, key: keySpec, data: spec, output },
        { dedicated: spec.kind === "file" },
      );
      setResult({ ...r, alg });
      notify.success(`HMAC-${alg} computed`);
    } catch (err) {
      setResult(null);
      setErrors(errorsFrom(err));
    }
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-hmac" noValidate className="grid gap-3">
      <ToolHeading id="tool-hmac" title="HMAC">
        A keyed message authentication code (RFC 2104) over any of the hashes. Keys longer than the hash's
        block are hashed first, as the standard says; an empty key is allowed.
      </ToolHeading>
      <DataField
        id="hmac-key"
        label="Key"
        value={key}
        onChange={setKey}
        kinds={["hex", "utf8", "base64"]}
        error={errors.key}
        rows={2}
      />
      <DataField id="hmac-data" label="Message" value={data} onChange={setData} error={errors.data} />
      <FormGrid>
        <SelectField
          id="hmac-alg"
          label="Hash"
          value={alg}
          onChange={(v) => setAlg(v as typeof alg)}
          options={HASH_OPTIONS}
          error={errors.alg}
        />
        <SelectField
          id="hmac-output"
          label="Output"
          value={output}
          onChange={(v) => setOutput(v as OutputEncoding)}
          options={OUTPUT_OPTIONS}
        />
      </FormGrid>
      <RunRow job={job.state} label="Compute HMAC" pendingLabel="Computing…" error={errors.form} />
      <ResultBox
        id="hmac-result"
        label="MAC"
        value={result?.value ?? ""}
        placeholder="Enter a key and a message and press Compute HMAC; the MAC appears here."
      >
        {result
          ? `HMAC-${result.alg} of ${formatBytes(result.inputLength)}: ${result.outputLength} bytes`
          : ""}
      </ResultBox>
    </form>
  );
}
