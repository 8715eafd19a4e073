"use client";

import { type FormEvent, useState } from "react";
import { HASH_OPTIONS, type HASHES } from "../../constants";
import { formatBytes } from "../../format";
import type { OutputEncoding } from "../../op-base";
import type { OpResult } from "../../ops";
import { DataField, type DataValue, dataSpec, emptyData } from "../../ui/data-field";
import { OutputField, SelectField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";

export default function HmacTool() {
  const [alg, setAlg] = useState<(typeof HASHES)[number]>("SHA-256");
  const [key, setKey] = useState<DataValue>(emptyData("hex"));
  const [data, setData] = useState<DataValue>(emptyData());
  const [output, setOutput] = useState<OutputEncoding>("hex");
  const form = useToolForm<OpResult<"hmac"> & { alg: string; output: OutputEncoding }>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const keySpec = dataSpec(key);
    const spec = dataSpec(data);
    if (!keySpec) return form.setErrors({ key: "Choose the key file" });
    if (!spec) return form.setErrors({ data: "Choose a file" });
    await form.submit(
      async (run) => ({
        ...(await run(
          "hmac",
          { alg, key: keySpec, data: spec, output },
          { dedicated: spec.kind === "file" },
        )),
        alg,
        output,
      }),
      `HMAC-${alg} computed`,
    );
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
        <OutputField id="hmac-output" value={output} onChange={setOutput} />
      </FormGrid>
      <RunRow {...form.runRow} label="Compute HMAC" pendingLabel="Computing…" />
      <ResultBox
        id="hmac-result"
        label="MAC"
        value={result?.value ?? ""}
        download={result ? { filename: "mac.bin", binary: result.output } : undefined}
        placeholder="Enter a key and a message and press Compute HMAC; the MAC appears here."
      >
        {result
          ? `HMAC-${result.alg} of ${formatBytes(result.inputLength)}: ${result.outputLength} bytes`
          : ""}
      </ResultBox>
    </form>
  );
}
