"use client";

import { type FormEvent, useEffect, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { DataField, type DataValue, dataSpec, emptyData } from "../../ui/data-field";
import { SelectField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { CopyButton, ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import type { RecipeResult } from "./op";
import {
  defaultStep,
  inputBytes,
  RECIPE_CIPHERS,
  RECIPE_HASHES,
  RECIPE_MAX_STEPS,
  recipeFragment,
  recipeFromFragment,
  recipeShell,
  STEP_LABELS,
  type Step,
  type StepOp,
} from "./steps";

const OPS = (Object.keys(STEP_LABELS) as StepOp[]).map((value) => ({ value, label: STEP_LABELS[value] }));
const HASHES = RECIPE_HASHES.map((value) => ({ value, label: value }));
const CIPHERS = RECIPE_CIPHERS.map((value) => ({ value, label: value }));

function StepFields({ step, i, onChange }: { step: Step; i: number; onChange: (s: Step) => void }) {
  const id = `recipe-step-${i}`;
  const num = (v: string) => Number(v.replace(/[\s_,]/g, ""));
  return (
    <FormGrid className="sm:grid-cols-4">
      {"alg" in step ? (
        <SelectField
          id={`${id}-alg`}
          label="Hash"
          value={step.alg}
          onChange={(alg) => onChange({ ...step, alg } as Step)}
          options={HASHES}
        />
      ) : null}
      {"cipher" in step ? (
        <SelectField
          id={`${id}-cipher`}
          label="Cipher"
          value={step.cipher}
          onChange={(cipher) => onChange({ ...step, cipher } as Step)}
          options={CIPHERS}
        />
      ) : null}
      {step.op === "hmac" ? (
        <TextField
          id={`${id}-key`}
          label="Key (hex)"
          value={step.key}
          onChange={(key) => onChange({ ...step, key })}
        />
      ) : null}
      {"password" in step ? (
        <TextField
          id={`${id}-password`}
          label="Password"
          type="password"
          autoComplete="off"
          value={step.password}
          onChange={(password) => onChange({ ...step, password } as Step)}
        />
      ) : null}
      {"salt" in step ? (
        <TextField
          id={`${id}-salt`}
          label={step.op === "encrypt" ? "Salt (8 bytes hex, -S)" : "Salt (hex)"}
          value={step.salt}
          onChange={(salt) => onChange({ ...step, salt } as Step)}
        />
      ) : null}
      {"iter" in step ? (
        <TextField
          id={`${id}-iter`}
          label="Iterations"
          inputMode="numeric"
          value={String(step.iter)}
          onChange={(v) => onChange({ ...step, iter: num(v) } as Step)}
        />
      ) : null}
      {step.op === "pbkdf2" ? (
        <TextField
          id={`${id}-length`}
          label="Length (bytes)"
          inputMode="numeric"
          value={String(step.length)}
          onChange={(v) => onChange({ ...step, length: num(v) })}
        />
      ) : null}
    </FormGrid>
  );
}

/** Recipes: steps chained output to input, shareable by a link that never reaches the server. */
export default function RecipeTool() {
  const [input, setInput] = useState<DataValue>(emptyData("utf8"));
  const [steps, setSteps] = useState<Step[]>([{ op: "hash", alg: "SHA-256" }, { op: "toBase64" }]);
  const [adding, setAdding] = useState<StepOp>("hash");
  const [withInput, setWithInput] = useState(false);
  const form = useToolForm<RecipeResult>();
  const { errors, result } = form;

  // A shared link opens with its recipe (and its input, when it was shared with it).
  useEffect(() => {
    const shared = recipeFromFragment(window.location.hash);
    if (!shared) return;
    setSteps(shared.steps);
    if (shared.input) setInput({ kind: shared.input.kind, text: shared.input.text, file: null });
  }, []);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const spec = dataSpec(input);
    if (!spec) return form.setErrors({ input: "Choose a file" });
    await form.submit((run) => run("recipe", { input: spec, steps }), "Recipe run");
  }

  const textInput = input.kind === "file" ? null : { kind: input.kind, text: input.text };
  const link = () => {
    const url = new URL(window.location.href);
    url.hash = recipeFragment({ steps, ...(withInput && textInput ? { input: textInput } : {}) });
    return url.toString();
  };
  const bytes = withInput && textInput ? inputBytes(textInput.kind, textInput.text) : null;
  const shell = recipeShell(steps, bytes ?? undefined);

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-recipe" noValidate className="grid gap-3">
      <ToolHeading id="tool-recipe" title="Recipes">
        Chain steps, each one's output the next one's input: hashes, HMAC, Base64 and hex, openssl enc and
        PBKDF2. The recipe is kept in the link's fragment, which browsers never send to a server; "Copy as
        shell" gives the same pipeline with openssl and coreutils.
      </ToolHeading>
      <DataField
        id="recipe-input"
        label="Input"
        value={input}
        onChange={setInput}
        kinds={["utf8", "hex", "base64", "file"]}
        rows={2}
        error={errors.input}
      />
      <ol className="grid gap-3" aria-label="Steps">
        {steps.map((step, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: steps have no identity but their place
          <li key={i} className="grid gap-2 rounded-md border border-border px-3 py-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-sm font-medium">
                {i + 1}. {STEP_LABELS[step.op]}
              </span>
              <Button
                type="button"
                variant="outline"
                size="sm"
                aria-label={`Remove step ${i + 1}`}
                onClick={() => setSteps(steps.filter((_, j) => j !== i))}
              >
                Remove
              </Button>
            </div>
            <StepFields
              step={step}
              i={i}
              onChange={(s) => setSteps(steps.map((x, j) => (j === i ? s : x)))}
            />
            {errors[`step-${i}`] ? <p className="text-sm text-destructive">{errors[`step-${i}`]}</p> : null}
            {result?.steps[i] ? (
              <p className="break-all font-mono text-xs text-muted-foreground">
                {result.steps[i].length} bytes: {result.steps[i].hex.slice(0, 128)}
                {result.steps[i].length > 64 ? "…" : ""}
              </p>
            ) : null}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-56 flex-1">
          <SelectField
            id="recipe-add"
            label="Add a step"
            value={adding}
            onChange={(v) => setAdding(v as StepOp)}
            options={OPS}
          />
        </div>
        <Button
          type="button"
          variant="outline"
          className="mb-6"
          disabled={steps.length >= RECIPE_MAX_STEPS}
          onClick={() => setSteps([...steps, defaultStep(adding)])}
        >
          Add step
        </Button>
      </div>
      {errors.steps ? <p className="text-sm text-destructive">{errors.steps}</p> : null}
      <RunRow {...form.runRow} label="Run recipe" pendingLabel="Running…" />
      <ResultBox
        id="recipe-output"
        label="Recipe output (hex)"
        value={result ? (result.steps.at(-1)?.hex ?? "") : ""}
        placeholder="Add steps and press Run recipe; the last step's output appears here."
        download={result ? { filename: "output.bin", bytes: result.output } : undefined}
      />
      <div className="grid gap-2 rounded-md border border-border px-3 py-2 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={withInput} onChange={(e) => setWithInput(e.target.checked)} />
          Put the input in the link and the shell line too
        </label>
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={async () => {
              const url = link();
              window.history.replaceState(window.history.state, "", url);
              try {
                await navigator.clipboard.writeText(url);
                notify.success("Link copied");
              } catch {
                notify.info("The link is in the address bar");
              }
            }}
          >
            Copy link
          </Button>
          <CopyButton text={shell} what="Shell pipeline" />
        </div>
        <pre className="overflow-auto whitespace-pre-wrap break-all font-mono text-xs text-muted-foreground">
          {shell}
        </pre>
      </div>
    </form>
  );
}
