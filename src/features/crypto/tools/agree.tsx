"use client";

import { type FormEvent, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { OUTPUT_OPTIONS } from "../constants";
import type { OpResult, OutputEncoding } from "../ops";
import {
  errorsFrom,
  type FieldErrors,
  FormGrid,
  PemField,
  ResultBox,
  RunRow,
  SelectField,
  TextField,
  ToolHeading,
  useCryptoJob,
} from "../ui";

export function AgreeTool() {
  const [privateKey, setPrivateKey] = useState("");
  const [passphrase, setPassphrase] = useState("");
  const [peer, setPeer] = useState("");
  const [pad, setPad] = useState(true);
  const [output, setOutput] = useState<OutputEncoding>("hex");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<OpResult<"derive"> | null>(null);
  const job = useCryptoJob();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    try {
      setResult(await job.run("derive", { privateKey, passphrase, peerPublicKey: peer, pad, output }));
      notify.success("Shared secret derived");
    } catch (err) {
      setResult(null);
      setErrors(errorsFrom(err));
    }
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-agree" noValidate className="grid gap-3">
      <ToolHeading id="tool-agree" title="Key agreement">
        Your private key and the other party's public key give a secret you both compute alike: ECDH on P-256,
        P-384, P-521 or secp256k1, X25519, or finite-field Diffie-Hellman in an RFC 3526 or RFC 7919 group.
        Both keys must be of the same type and group. Use the secret through a KDF (HKDF), not directly as a
        key.
      </ToolHeading>
      <div className="grid gap-x-4 lg:grid-cols-2">
        <PemField
          id="agree-private"
          label="Your private key"
          value={privateKey}
          onChange={setPrivateKey}
          error={errors.privateKey}
        />
        <PemField
          id="agree-peer"
          label="Their public key"
          value={peer}
          onChange={setPeer}
          error={errors.peerPublicKey}
        />
      </div>
      <FormGrid className="sm:grid-cols-3">
        <TextField
          id="agree-passphrase"
          label="Passphrase (if encrypted)"
          type="password"
          autoComplete="off"
          value={passphrase}
          onChange={setPassphrase}
          error={errors.passphrase}
        />
        <SelectField
          id="agree-output"
          label="Output"
          value={output}
          onChange={(v) => setOutput(v as OutputEncoding)}
          options={OUTPUT_OPTIONS}
        />
        <div className="grid content-start gap-2">
          <span className="text-sm font-medium leading-none" aria-hidden>
            DH padding
          </span>
          <label className="flex h-10 items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={pad}
              onChange={(e) => setPad(e.target.checked)}
              className="size-4 accent-primary"
              aria-describedby="agree-pad-hint"
            />
            Pad DH secrets to the length of p
          </label>
          <p id="agree-pad-hint" className="text-xs text-muted-foreground">
            OpenSSL: <code className="font-mono">-pkeyopt dh_pad:1</code>. Unpadded is OpenSSL's default.
          </p>
        </div>
      </FormGrid>
      <RunRow job={job.state} label="Derive shared secret" pendingLabel="Deriving…" error={errors.form} />
      <ResultBox
        id="agree-result"
        label="Shared secret"
        value={result?.value ?? ""}
        placeholder="Paste your private key and their public key and press Derive; the secret appears here."
      >
        {result ? `${result.length} bytes` : ""}
      </ResultBox>
    </form>
  );
}
