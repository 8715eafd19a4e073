"use client";

import { type FormEvent, useState } from "react";
import { withArticle } from "../../format";
import { SelectField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { emptyPrivateKey, PrivateKeyFields } from "../../ui/pem-field";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import type { ConvertedKey } from "./op";

const TARGETS = [
  { value: "spki", label: "Public key, SPKI (openssl pkey -pubout)" },
  { value: "pkcs8", label: "Private key, PKCS#8 (openssl pkey)" },
  { value: "pkcs8-encrypted", label: "Private key, encrypted PKCS#8 (openssl pkcs8 -topk8 -v2 aes-256-cbc)" },
  { value: "pkcs1", label: "RSA private key, PKCS#1 (openssl rsa -traditional)" },
  { value: "pkcs1-public", label: "RSA public key, PKCS#1 (openssl rsa -RSAPublicKey_out)" },
  { value: "sec1", label: "EC private key, SEC1 (openssl ec)" },
  { value: "jwk", label: "Private JWK" },
  { value: "jwk-public", label: "Public JWK" },
] as const;

type Target = (typeof TARGETS)[number]["value"];

const EXTENSIONS: Record<ConvertedKey["kind"], string> = { pem: "pem", der: "der", jwk: "jwk" };

/** Key conversion: PEM ↔ DER, PKCS#8 ↔ PKCS#1/SEC1, JWK, and the public key of a private key. */
export default function ConvertTool() {
  const [key, setKey] = useState(emptyPrivateKey);
  const [target, setTarget] = useState<Target>("spki");
  const [encoding, setEncoding] = useState<"pem" | "der">("pem");
  const [newPassphrase, setNewPassphrase] = useState("");
  const form = useToolForm<ConvertedKey>();
  const { errors, result } = form;
  const jwk = target.startsWith("jwk");
  const encrypted = target === "pkcs8-encrypted";

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await form.submit(
      (run) =>
        run("convertKey", {
          input: key.key,
          passphrase: key.passphrase,
          target,
          encoding: jwk || encrypted ? "pem" : encoding,
          newPassphrase,
        }),
      "Converted",
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-convert" noValidate className="grid gap-3">
      <ToolHeading id="tool-convert" title="Key conversion">
        Any key the workbench reads (PEM or DER; PKCS#8, encrypted PKCS#8, PKCS#1, SEC1, legacy encrypted PEM,
        a certificate or a request, or a JWK) to PEM, DER or JWK, or its public key alone.
      </ToolHeading>
      <PrivateKeyFields
        prefix="convert"
        label="Key"
        hint="PEM, base64 or hex DER, a .der file, or a JWK (JSON)"
        value={key}
        onChange={setKey}
        errors={errors}
      />
      <FormGrid>
        <SelectField
          id="convert-target"
          label="Convert to"
          value={target}
          onChange={(v) => setTarget(v as Target)}
          options={TARGETS}
          error={errors.target}
        />
        <SelectField
          id="convert-encoding"
          label="Encoding"
          value={jwk ? "json" : encrypted ? "pem" : encoding}
          onChange={(v) => setEncoding(v as "pem" | "der")}
          disabled={jwk || encrypted}
          options={
            jwk
              ? [{ value: "json", label: "JSON" }]
              : [
                  { value: "pem", label: "PEM" },
                  { value: "der", label: "DER (shown as base64, saved as binary)" },
                ]
          }
        />
      </FormGrid>
      {encrypted ? (
        <TextField
          id="convert-new-passphrase"
          label="New passphrase"
          hint="PBKDF2-HMAC-SHA-256 with 600,000 iterations and AES-256-CBC"
          type="password"
          autoComplete="new-password"
          value={newPassphrase}
          onChange={setNewPassphrase}
          error={errors.newPassphrase}
        />
      ) : null}
      <RunRow {...form.runRow} label="Convert" pendingLabel="Converting…" />
      <ResultBox
        id="convert-result"
        label="Converted key"
        size="lg"
        value={result?.value ?? ""}
        placeholder="Paste or open a key, choose the format and press Convert; the result appears here."
        download={
          result
            ? result.kind === "der"
              ? { filename: "key.der", binary: "base64" }
              : {
                  filename: `key.${EXTENSIONS[result.kind]}`,
                  type: result.kind === "jwk" ? "application/jwk+json" : "application/x-pem-file",
                }
            : undefined
        }
      >
        {result
          ? `From ${withArticle(result.summary.type)} ${result.summary.isPrivate ? "private" : "public"} key of ${result.summary.bits} bits${result.label ? ` to “${result.label}”` : ""}`
          : ""}
      </ResultBox>
    </form>
  );
}
