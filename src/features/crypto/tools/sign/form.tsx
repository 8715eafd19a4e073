"use client";

import { type FormEvent, useEffect, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { HASH_OPTIONS, SCHEMES_WITHOUT_HASH, withScheme } from "../../constants";
import { useHandoff } from "../../handoff";
import type { OutputEncoding } from "../../op-base";
import { DataField, type DataValue, dataSpec, emptyData } from "../../ui/data-field";
import { OutputField, SelectField } from "../../ui/fields";
import { type FieldErrors, useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { emptyPrivateKey, PemField, PrivateKeyFields } from "../../ui/pem-field";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import type { SignatureOptions } from "./op";

const SCHEMES = [
  { value: "auto", label: "From the key" },
  { value: "RSASSA-PKCS1-v1_5", label: "RSA PKCS#1 v1.5" },
  { value: "RSA-PSS", label: "RSA-PSS" },
  { value: "ECDSA", label: "ECDSA" },
  { value: "Ed25519", label: "Ed25519" },
  { value: "Ed448", label: "Ed448" },
  { value: "DSA", label: "DSA" },
];

const SIG_HASHES = [{ value: "default", label: "Default for the key" }, ...HASH_OPTIONS];

const FORMATS = [
  { value: "der", label: "DER (OpenSSL)" },
  { value: "raw", label: "Raw r||s (JWS, WebCrypto)" },
];

const SIGN_SALTS = [
  { value: "digest", label: "Digest length (OpenSSL's default)" },
  { value: "max", label: "Maximum" },
  { value: "0", label: "0 (deterministic)" },
  { value: "20", label: "20 bytes" },
  { value: "32", label: "32 bytes" },
  { value: "64", label: "64 bytes" },
];

const VERIFY_SALTS = [{ value: "auto", label: "Auto: digest, maximum or 0" }, ...SIGN_SALTS];

function SchemeFields({
  prefix,
  options,
  onChange,
  errors,
  verifying = false,
}: {
  prefix: string;
  options: SignatureOptions;
  onChange: (o: SignatureOptions) => void;
  errors: FieldErrors;
  verifying?: boolean;
}) {
  return (
    // Two columns at every width from sm: four in a row truncated the labels and options, and a label
    // that wrapped pushed its select below the others.
    <FormGrid>
      <SelectField
        id={`${prefix}-scheme`}
        label="Scheme"
        value={options.scheme}
        onChange={(v) => onChange(withScheme(options, v as SignatureOptions["scheme"]))}
        options={SCHEMES}
      />
      <SelectField
        id={`${prefix}-hash`}
        label="Hash"
        value={options.hash}
        onChange={(v) => onChange({ ...options, hash: v as SignatureOptions["hash"] })}
        options={SIG_HASHES}
        error={errors.hash}
        disabled={SCHEMES_WITHOUT_HASH.includes(options.scheme)}
      />
      <SelectField
        id={`${prefix}-format`}
        label="ECDSA/DSA signature format"
        value={options.format}
        onChange={(v) => onChange({ ...options, format: v as SignatureOptions["format"] })}
        options={FORMATS}
      />
      <SelectField
        id={`${prefix}-pss-salt`}
        label="RSA-PSS salt length"
        value={options.pssSalt ?? (verifying ? "auto" : "digest")}
        onChange={(v) => onChange({ ...options, pssSalt: v })}
        options={verifying ? VERIFY_SALTS : SIGN_SALTS}
        error={errors.pssSalt}
      />
    </FormGrid>
  );
}

interface Prefill {
  publicKey: string;
  data: DataValue;
  signature: string;
  encoding: OutputEncoding;
  options: SignatureOptions;
  n: number;
}

const defaultOptions: SignatureOptions = { scheme: "auto", hash: "default", format: "der" };

/** "Check it with Verify" carries the salt length over; the signing default is "digest". */
const verifySaltFor = (salt: string | undefined) => salt ?? "digest";

function SignForm({ onCheck }: { onCheck: (p: Omit<Prefill, "n">) => void }) {
  const [key, setKey] = useState(emptyPrivateKey);
  const [data, setData] = useState<DataValue>(emptyData());
  const [options, setOptions] = useState<SignatureOptions>(defaultOptions);
  const [output, setOutput] = useState<OutputEncoding>("base64");
  const form = useToolForm<{
    value: string;
    label: string;
    publicPem: string;
    data: DataValue;
    options: SignatureOptions;
    output: OutputEncoding;
  }>();
  const { errors, result } = form;
  const { signKey } = useHandoff();
  const { setResult, setErrors } = form;
  useEffect(() => {
    if (!signKey) return;
    setKey({ key: signKey.privateKey, passphrase: signKey.passphrase });
    setResult(null);
    setErrors({});
    document.getElementById("sign-heading")?.scrollIntoView({ block: "start" });
    document.getElementById("sign-data")?.focus({ preventScroll: true });
    notify.info("The key from Key generation is in Sign: type the message");
  }, [signKey, setResult, setErrors]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const spec = dataSpec(data);
    if (!spec) return form.setErrors({ data: "Choose a file to sign" });
    await form.submit(async (run) => {
      const r = await run("sign", {
        privateKey: key.key,
        passphrase: key.passphrase,
        data: spec,
        options,
        output,
      });
      return { ...r, data, options: { ...options, pssSalt: verifySaltFor(options.pssSalt) }, output };
    }, "Signed");
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="sign-heading" noValidate className="grid gap-3">
      <h4 id="sign-heading" className="text-base font-semibold">
        Sign
      </h4>
      <PrivateKeyFields prefix="sign" value={key} onChange={setKey} errors={errors} />
      <DataField
        id="sign-data"
        label="Message"
        value={data}
        onChange={setData}
        rows={3}
        error={errors.data}
      />
      <SchemeFields prefix="sign" options={options} onChange={setOptions} errors={errors} />
      <FormGrid>
        <OutputField id="sign-output" label="Signature output" value={output} onChange={setOutput} />
      </FormGrid>
      <RunRow {...form.runRow} label="Sign" pendingLabel="Signing…" />
      <ResultBox
        id="sign-result"
        label="Signature"
        value={result?.value ?? ""}
        download={result ? { filename: "signature.sig", binary: result.output } : undefined}
        placeholder="Paste a private key, type a message and press Sign; the signature appears here."
      >
        {result ? result.label : ""}
      </ResultBox>
      <div className="min-h-8">
        <Button
          type="button"
          variant="secondary"
          size="sm"
          disabled={!result}
          className={cn(!result && "invisible")}
          onClick={() =>
            result &&
            onCheck({
              publicKey: result.publicPem,
              data: result.data,
              signature: result.value,
              encoding: result.output,
              options: result.options,
            })
          }
        >
          Check it with Verify
        </Button>
      </div>
    </form>
  );
}

function VerifyForm({ prefill }: { prefill: Prefill | null }) {
  const [publicKey, setPublicKey] = useState("");
  const [data, setData] = useState<DataValue>(emptyData());
  const [signature, setSignature] = useState<DataValue>(emptyData("base64"));
  const [options, setOptions] = useState<SignatureOptions>(defaultOptions);
  const form = useToolForm<{ valid: boolean; label: string; hint?: string }>();
  const { errors, result, setErrors, setResult } = form;

  useEffect(() => {
    if (!prefill) return;
    setPublicKey(prefill.publicKey);
    setData(prefill.data);
    setSignature({ kind: prefill.encoding, text: prefill.signature, file: null });
    setOptions(prefill.options);
    setResult(null);
    setErrors({});
    document.getElementById("verify-heading")?.scrollIntoView({ behavior: "smooth", block: "start" });
    document.getElementById("verify-key")?.focus({ preventScroll: true });
  }, [prefill, setErrors, setResult]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const spec = dataSpec(data);
    const sig = dataSpec(signature);
    if (!spec) return setErrors({ data: "Choose the message file" });
    if (!sig) return setErrors({ signature: "Choose the signature file (e.g. OpenSSL's .sig)" });
    const r = await form.submit((run) => run("verify", { publicKey, data: spec, signature: sig, options }));
    if (r && !r.valid) notify.error("The signature is not valid");
    else if (r) notify.success("The signature is valid");
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="verify-heading" noValidate className="grid gap-3">
      <h4 id="verify-heading" className="scroll-mt-24 text-base font-semibold">
        Verify
      </h4>
      <PemField
        id="verify-key"
        label="Public key or certificate"
        hint="PEM (SPKI, PKCS#1 or a certificate), base64 or hex DER"
        value={publicKey}
        onChange={setPublicKey}
        error={errors.publicKey}
      />
      <DataField
        id="verify-data"
        label="Message"
        value={data}
        onChange={setData}
        rows={3}
        error={errors.data}
      />
      <DataField
        id="verify-signature"
        label="Signature"
        value={signature}
        onChange={setSignature}
        kinds={["base64", "hex", "file"]}
        rows={2}
        error={errors.signature}
      />
      <SchemeFields prefix="verify" options={options} onChange={setOptions} errors={errors} verifying />
      <RunRow {...form.runRow} label="Verify" pendingLabel="Verifying…" />
      <div
        id="verify-result"
        role="status"
        className={cn(
          "flex min-h-12 items-center rounded-md border px-3 py-2 text-sm",
          !result && "border-dashed border-border text-muted-foreground",
          result?.valid && "border-success/50 bg-success/10 font-medium text-foreground",
          result && !result.valid && "border-destructive/50 bg-destructive/10 font-medium text-foreground",
        )}
      >
        {result ? (
          <span>
            <span className={result.valid ? "text-success" : "text-destructive"}>
              {result.valid ? "✓ Valid signature" : "✗ Invalid signature"}
            </span>
            <span className="font-normal text-muted-foreground"> ({result.label})</span>
            {result.hint ? (
              <span className="mt-1 block font-normal text-foreground">{result.hint}</span>
            ) : null}
          </span>
        ) : (
          "Paste a public key, the message and the signature, then press Verify."
        )}
      </div>
    </form>
  );
}

export default function SignTool() {
  const [prefill, setPrefill] = useState<Prefill | null>(null);
  return (
    <section aria-labelledby="tool-sign">
      <ToolHeading id="tool-sign" title="Sign and verify">
        Digital signatures with RSA (PKCS#1 v1.5 and PSS), ECDSA (P-256, P-384, P-521, secp256k1), Ed25519,
        Ed448 and DSA. The scheme follows the key unless you choose one.
      </ToolHeading>
      <div className="grid gap-10">
        <SignForm onCheck={(p) => setPrefill((old) => ({ ...p, n: (old?.n ?? 0) + 1 }))} />
        <VerifyForm prefill={prefill} />
      </div>
    </section>
  );
}
