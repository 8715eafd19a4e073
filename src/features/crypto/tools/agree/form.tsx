"use client";

import { type FormEvent, useState } from "react";
import type { OutputEncoding } from "../../op-base";
import type { OpResult } from "../../ops";
import { OutputField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { emptyPrivateKey, PemField, PrivateKeyFields } from "../../ui/pem-field";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";

export default function AgreeTool() {
  const [key, setKey] = useState(emptyPrivateKey);
  const [peer, setPeer] = useState("");
  // Off by default, as `openssl pkeyutl -derive` (dh_pad:0): a padded secret differs from OpenSSL's
  // about one time in 256, whenever the secret's top byte is zero.
  const [pad, setPad] = useState(false);
  const [output, setOutput] = useState<OutputEncoding>("hex");
  const form = useToolForm<OpResult<"derive"> & { output: OutputEncoding }>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await form.submit(
      async (run) => ({
        ...(await run("derive", {
          privateKey: key.key,
          passphrase: key.passphrase,
          peerPublicKey: peer,
          pad,
          output,
        })),
        output,
      }),
      "Shared secret derived",
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-agree" noValidate className="grid gap-3">
      <ToolHeading id="tool-agree" title="Key agreement">
        Your private key and the other party's public key give a secret you both compute alike: ECDH on P-256,
        P-384, P-521 or secp256k1, X25519, X448, or finite-field Diffie-Hellman in an RFC 3526 or RFC 7919
        group. Both keys must be of the same type and group. Use the secret through a KDF (the HKDF tool), not
        directly as a key.
      </ToolHeading>
      <div className="grid gap-x-4 lg:grid-cols-2">
        <div className="grid content-start gap-3">
          <PrivateKeyFields
            prefix="agree"
            label="Your private key"
            hint="PEM, base64 or hex DER, or a .der file"
            value={key}
            onChange={setKey}
            errors={errors}
          />
        </div>
        <PemField
          id="agree-peer"
          label="Their public key"
          hint="PEM (SPKI or a certificate), base64 or hex DER"
          value={peer}
          onChange={setPeer}
          error={errors.peerPublicKey}
        />
      </div>
      <FormGrid>
        <OutputField id="agree-output" value={output} onChange={setOutput} />
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
            Off matches <code className="font-mono">openssl pkeyutl -derive</code>; on matches{" "}
            <code className="font-mono">-pkeyopt dh_pad:1</code> (and TLS). ECDH, X25519 and X448 are always
            full length.
          </p>
        </div>
      </FormGrid>
      <RunRow {...form.runRow} label="Derive shared secret" pendingLabel="Deriving…" />
      <ResultBox
        id="agree-result"
        label="Shared secret"
        value={result?.value ?? ""}
        placeholder="Paste your private key and their public key and press Derive; the secret appears here."
        download={result ? { filename: "secret.bin", binary: result.output } : undefined}
      >
        {result ? `${result.length} bytes` : ""}
      </ResultBox>
    </form>
  );
}
