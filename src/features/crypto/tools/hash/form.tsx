"use client";

import { type FormEvent, useEffect, useRef, useState } from "react";
import { releaseHashWorker, warmHashWorker } from "../../client";
import { DIGEST_OPTIONS, type DIGESTS, XOF_DEFAULTS } from "../../constants";
import { formatBytes } from "../../format";
import type { DataSpec, OutputEncoding } from "../../op-base";
import type { OpResult } from "../../ops";
import { DataField, type DataValue, dataSpec, emptyData } from "../../ui/data-field";
import { OutputField, SelectField, TextField } from "../../ui/fields";
import { errorsFrom, isAborted, useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";

type Digest = (typeof DIGESTS)[number];

/** Typed input is hashed this long after the last change. */
const LIVE_DELAY_MS = 250;
/** Longer typed (or pasted) input is hashed on the button only. */
const LIVE_MAX_CHARS = 1_000_000;

const isXof = (alg: Digest): alg is keyof typeof XOF_DEFAULTS => alg in XOF_DEFAULTS;

export default function HashTool() {
  const [alg, setAlg] = useState<Digest>("SHA-256");
  const [data, setData] = useState<DataValue>(emptyData());
  const [output, setOutput] = useState<OutputEncoding>("hex");
  const [length, setLength] = useState("");
  const form = useToolForm<OpResult<"hash"> & { alg: string; output: OutputEncoding }>();
  const xof = isXof(alg);
  // Files are hashed by a small worker of its own, started now so that a run does not wait for it.
  useEffect(() => {
    warmHashWorker();
    return releaseHashWorker;
  }, []);

  const len = xof && length.trim() ? Number(length) : undefined;
  const args = (spec: DataSpec) => ({
    alg,
    data: spec,
    output,
    ...(len !== undefined ? { length: len } : {}),
  });

  const liveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // A live run still waiting would cancel this one.
    clearTimeout(liveTimer.current);
    const spec = dataSpec(data);
    if (!spec) return form.setErrors({ data: "Choose a file to hash" });
    await form.submit(
      async (run) => ({
        ...(await run("hash", args(spec), spec.kind === "file" ? { worker: "hash" } : {})),
        alg,
        output,
      }),
      `${alg} computed`,
    );
  }

  // Typed input is hashed as it changes (in the worker, a moment after the last key), without
  // toasts; a newer run cancels the one before. Files wait for the button: they can be large.
  const { job, setResult, setErrors } = form;
  const typed = data.kind === "file" ? null : data.text;
  // A digest of typed text does not stay beside a file chosen instead (nor the other way round).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the kind of input changes only
  useEffect(() => setResult(null), [data.kind === "file"]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: args is rebuilt from alg, output and len, listed here
  useEffect(() => {
    if (typed === null) return;
    if (typed === "" || typed.length > LIVE_MAX_CHARS) {
      if (typed === "") setResult(null);
      return;
    }
    const spec = dataSpec(data);
    if (!spec) return;
    liveTimer.current = setTimeout(async () => {
      try {
        const r = await job.run("hash", args(spec));
        setErrors({});
        setResult({ ...r, alg, output });
      } catch (err) {
        if (isAborted(err)) return;
        setResult(null);
        setErrors(errorsFrom(err, "form", { toast: false }));
      }
    }, LIVE_DELAY_MS);
    return () => clearTimeout(liveTimer.current);
  }, [typed, data.kind, alg, output, len]);

  const result = form.result;
  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-hash" noValidate className="grid gap-3">
      <ToolHeading id="tool-hash" title="Hash">
        A digest of text, hex, base64 or a file of any size: SHA-2, SHA-3, BLAKE2, BLAKE3, SHAKE and the
        legacy MD5, SHA-1 and RIPEMD-160. Files are read in chunks in a background worker, so the page stays
        responsive.
      </ToolHeading>
      <DataField id="hash-data" label="Input" value={data} onChange={setData} error={form.errors.data} />
      <FormGrid className="sm:grid-cols-3">
        <SelectField
          id="hash-alg"
          label="Algorithm"
          value={alg}
          onChange={(v) => setAlg(v as Digest)}
          options={DIGEST_OPTIONS}
          error={form.errors.alg}
        />
        <TextField
          id="hash-length"
          label="XOF length (bytes)"
          type="number"
          inputMode="numeric"
          min={1}
          max={1024}
          value={length}
          placeholder={xof ? String(XOF_DEFAULTS[alg]) : undefined}
          off={xof ? undefined : "Fixed by the algorithm"}
          onChange={setLength}
          error={form.errors.length}
        />
        <OutputField id="hash-output" value={output} onChange={setOutput} />
      </FormGrid>
      <RunRow {...form.runRow} label="Hash" pendingLabel="Hashing…" />
      <ResultBox
        id="hash-result"
        label="Digest"
        value={result?.value ?? ""}
        placeholder="Type some input: the digest appears here as you type (for a file, press Hash)."
        download={result ? { filename: "digest.bin", binary: result.output } : undefined}
      >
        {result
          ? `${result.alg} of ${formatBytes(result.inputLength)}: ${result.outputLength} bytes (${result.outputLength * 8} bits)`
          : ""}
      </ResultBox>
    </form>
  );
}
