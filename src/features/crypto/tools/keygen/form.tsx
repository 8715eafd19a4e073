"use client";

import { Signature } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { KEY_ALGORITHM_GROUPS } from "../../constants";
import { useHandoff } from "../../handoff";
import { SelectField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import type { GeneratedKeys } from "./op";

function summaryLine(k: GeneratedKeys): string {
  const s = k.summary;
  const detail = s.ec
    ? s.ec.curve
    : s.dh?.group
      ? `group ${s.dh.group}`
      : s.dsa
        ? `p ${s.dsa.pBits} bits, q ${s.dsa.qBits} bits`
        : `${s.bits} bits`;
  return `${s.type} key pair, ${detail}; generated in ${(k.millis / 1000).toFixed(2)} s${k.encrypted ? "; private key encrypted (PBES2, PBKDF2-HMAC-SHA-256 600,000 iterations, AES-256-CBC)" : ""}`;
}

/** The key types the Sign tool signs with (X25519, X448 and DH keys only agree on secrets). */
const SIGNING_KINDS: readonly GeneratedKeys["summary"]["kind"][] = ["rsa", "ec", "ed25519", "ed448", "dsa"];

export default function KeygenTool() {
  const [algorithm, setAlgorithm] = useState("Ed25519");
  const [passphrase, setPassphrase] = useState("");
  const form = useToolForm<GeneratedKeys & { passphrase: string }>();
  const { errors, result: keys } = form;
  const { sendToSign } = useHandoff();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const used = passphrase;
    await form.submit(
      async (run) => ({
        ...(await run(
          "generateKey",
          { algorithm, ...(used ? { passphrase: used } : {}) },
          { dedicated: true },
        )),
        passphrase: used,
      }),
      (r) => `${r.summary.type} key pair generated`,
    );
  }

  const base = algorithm.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-keys" noValidate className="grid gap-3">
      <ToolHeading id="tool-keys" title="Key generation">
        A new key pair as PEM (PKCS#8 private key, SPKI public key) and JWK where one is defined. RSA 4096 and
        DSA (which makes fresh domain parameters) take a few seconds; they run in a background worker and can
        be cancelled.
      </ToolHeading>
      <FormGrid>
        <SelectField
          id="keys-algorithm"
          label="Algorithm"
          value={algorithm}
          onChange={setAlgorithm}
          groups={KEY_ALGORITHM_GROUPS}
          error={errors.algorithm}
        />
        <TextField
          id="keys-passphrase"
          label="Passphrase (optional)"
          type="password"
          autoComplete="new-password"
          value={passphrase}
          onChange={setPassphrase}
          hint="Encrypts the private key PEM (PKCS#8, AES-256-CBC)"
          error={errors.passphrase}
        />
      </FormGrid>
      <RunRow {...form.runRow} label="Generate key pair" pendingLabel="Generating…" />
      <p className="min-h-5 text-sm text-muted-foreground tabular-nums" aria-live="polite">
        {keys ? summaryLine(keys) : "Choose an algorithm and press Generate key pair."}
      </p>
      {keys && SIGNING_KINDS.includes(keys.summary.kind) ? (
        <div>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            onClick={() => sendToSign({ privateKey: keys.privatePem, passphrase: keys.passphrase })}
          >
            <Signature aria-hidden />
            Use this key to sign
          </Button>
        </div>
      ) : null}
      <div className="grid gap-x-4 lg:grid-cols-2">
        <ResultBox
          id="keys-private"
          label={keys?.encrypted ? "Encrypted private key (PEM)" : "Private key (PEM)"}
          value={keys?.privatePem ?? ""}
          placeholder="The private key appears here. Keep it secret."
          size="lg"
          download={{ filename: `${base}-private.pem` }}
        />
        <ResultBox
          id="keys-public"
          label="Public key (PEM)"
          value={keys?.publicPem ?? ""}
          placeholder="The public key appears here."
          size="lg"
          download={{ filename: `${base}-public.pem` }}
        />
        <ResultBox
          id="keys-private-jwk"
          label="Private key (JWK)"
          value={keys?.privateJwk ?? ""}
          placeholder={
            keys && !keys.privateJwk
              ? keys.encrypted
                ? "Not shown for an encrypted key: a JWK has no encryption."
                : "JWK defines no form for this key type."
              : "The private JWK appears here (RSA, EC, Ed25519, X25519, Ed448, X448)."
          }
          size="lg"
          download={{ filename: `${base}-private.jwk.json`, type: "application/json" }}
        />
        <ResultBox
          id="keys-public-jwk"
          label="Public key (JWK)"
          value={keys?.publicJwk ?? ""}
          placeholder={
            keys && !keys.publicJwk
              ? "JWK defines no form for this key type."
              : "The public JWK appears here (RSA, EC, Ed25519, X25519, Ed448, X448)."
          }
          size="lg"
          download={{ filename: `${base}-public.jwk.json`, type: "application/json" }}
        />
      </div>
    </form>
  );
}
