"use client";

import { type FormEvent, useState } from "react";
import { cn } from "@/lib/utils";
import { SelectField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { PemField } from "../../ui/pem-field";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import { JWE_ALGORITHMS, JWE_ENCRYPTIONS, JWS_ALGORITHMS } from "./algorithms";
import type { Decoded, Verified } from "./op";

type Action = "decode" | "verify" | "sign" | "encrypt" | "decrypt";

const ACTIONS = [
  { value: "decode", label: "Decode (no key)" },
  { value: "verify", label: "Verify a JWS/JWT" },
  { value: "sign", label: "Sign (JWS/JWT)" },
  { value: "encrypt", label: "Encrypt (JWE)" },
  { value: "decrypt", label: "Decrypt a JWE" },
];

const options = (list: readonly string[]) => list.map((value) => ({ value, label: value }));

const RUN_LABEL: Record<Action, string> = {
  decode: "Decode",
  verify: "Verify",
  sign: "Sign",
  encrypt: "Encrypt",
  decrypt: "Decrypt",
};

const KEY_HINT: Record<Action, string> = {
  decode: "",
  verify:
    "A public key or certificate (PEM, base64 or hex DER), a JWK, a JWK Set (JSON, pasted), or the shared secret for HS*",
  sign: "A private key (PEM in any form the workbench reads, or a JWK), or the shared secret for HS*",
  encrypt:
    "The recipient's public key (PEM or JWK); for A*KW and dir, a JWK of kty oct or the secret as text",
  decrypt: "Your private key (PEM or JWK); for A*KW and dir, a JWK of kty oct or the secret as text",
};

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
function fromNow(iso: string): string {
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ["year", 31_536_000],
    ["day", 86_400],
    ["hour", 3600],
    ["minute", 60],
    ["second", 1],
  ];
  const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s) ?? ["second", 1];
  return relative.format(Math.round(seconds / size), unit);
}

type Outcome =
  | { action: "decode"; decoded: Decoded }
  | { action: "verify"; decoded: Verified }
  | { action: "sign" | "encrypt"; token: string; header: string }
  | { action: "decrypt"; plaintext: string; header: string; binary: boolean };

function DecodedView({ d }: { d: Decoded }) {
  return (
    <div className="grid gap-2">
      <ResultBox id="jose-header" label="Header" value={d.header} placeholder="" />
      {d.payload !== undefined ? (
        <ResultBox id="jose-payload" label="Payload" value={d.payload} placeholder="" size="lg" />
      ) : (
        <p className="text-sm text-muted-foreground">
          A JWE: its payload is encrypted; decrypt it with the key.
        </p>
      )}
      {d.times?.length ? (
        <ul className="grid gap-1 text-sm tabular-nums" aria-label="Token times">
          {d.times.map((t) => (
            <li key={t.claim}>
              <span className="font-mono">{t.claim}</span>: {new Date(t.at).toLocaleString()} ({fromNow(t.at)}
              )
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** JWT, JWS, JWE and JWK with `jose`: the algorithm is always the one chosen here, never the token's alone. */
export default function JoseTool() {
  const [action, setAction] = useState<Action>("decode");
  const [token, setToken] = useState("");
  const [payload, setPayload] = useState('{\n  "sub": "alice"\n}');
  const [key, setKey] = useState("");
  const [passphrase, setPassphrase] = useState("");
  const [alg, setAlg] = useState("RS256");
  const [jweAlg, setJweAlg] = useState("RSA-OAEP-256");
  const [enc, setEnc] = useState("A256GCM");
  const [kid, setKid] = useState("");
  const [typ, setTyp] = useState("JWT");
  const form = useToolForm<Outcome>();
  const { errors, result } = form;
  const needsToken = action === "decode" || action === "verify" || action === "decrypt";
  const jwe = action === "encrypt" || action === "decrypt";

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const k = { key, passphrase };
    await form.submit(
      async (run): Promise<Outcome> => {
        switch (action) {
          case "decode":
            return { action, decoded: await run("joseDecode", { token }) };
          case "verify":
            return { action, decoded: await run("joseVerify", { token, alg, ...k }) };
          case "sign":
            return { action, ...(await run("joseSign", { payload, alg, kid, typ, ...k })) };
          case "encrypt":
            return {
              action,
              ...(await run("joseEncrypt", { plaintext: payload, alg: jweAlg, enc, kid, ...k })),
            };
          case "decrypt":
            return { action, ...(await run("joseDecrypt", { token, alg: jweAlg, enc, ...k })) };
        }
      },
      (r) =>
        r.action === "verify"
          ? null
          : r.action === "decode"
            ? "Decoded"
            : r.action === "decrypt"
              ? "Decrypted"
              : r.action === "sign"
                ? "Signed"
                : "Encrypted",
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-jose" noValidate className="grid gap-3">
      <ToolHeading id="tool-jose" title="JWT and JOSE">
        Decode, verify and sign JWTs and JWS, encrypt and decrypt JWE. You choose the algorithm: a token's own{" "}
        <code className="font-mono text-[0.9em]">alg</code> never decides, and{" "}
        <code className="font-mono text-[0.9em]">none</code> is refused. Keys are PEM, JWK, or a JWK Set you
        paste; nothing is fetched.
      </ToolHeading>
      <SelectField
        id="jose-action"
        label="What"
        value={action}
        onChange={(v) => {
          setAction(v as Action);
          form.setResult(null);
          form.setErrors({});
        }}
        options={ACTIONS}
      />
      {needsToken ? (
        <PemField
          id="jose-token"
          label="Token"
          placeholder="eyJhbGciOi…"
          rows={4}
          value={token}
          onChange={setToken}
          error={errors.token}
        />
      ) : (
        <PemField
          id="jose-payload-in"
          label={action === "sign" ? "Payload (claims)" : "Plaintext"}
          placeholder="{ … }"
          rows={4}
          value={payload}
          onChange={setPayload}
          error={errors.payload ?? errors.plaintext}
        />
      )}
      {action !== "decode" ? (
        <>
          <FormGrid className={jwe ? "sm:grid-cols-2" : "sm:grid-cols-3"}>
            {jwe ? (
              <>
                <SelectField
                  id="jose-jwe-alg"
                  label="Key management (alg)"
                  value={jweAlg}
                  onChange={setJweAlg}
                  options={options(JWE_ALGORITHMS)}
                  error={errors.alg}
                />
                <SelectField
                  id="jose-enc"
                  label="Content encryption (enc)"
                  value={enc}
                  onChange={setEnc}
                  options={options(JWE_ENCRYPTIONS)}
                  error={errors.enc}
                />
              </>
            ) : (
              <SelectField
                id="jose-alg"
                label="Algorithm (alg)"
                value={alg}
                onChange={setAlg}
                options={options(JWS_ALGORITHMS)}
                error={errors.alg}
              />
            )}
            {action === "sign" ? (
              <>
                <TextField id="jose-kid" label="Key ID (kid, optional)" value={kid} onChange={setKid} />
                <TextField id="jose-typ" label="Type (typ, optional)" value={typ} onChange={setTyp} />
              </>
            ) : null}
            {action === "encrypt" ? (
              <TextField id="jose-enc-kid" label="Key ID (kid, optional)" value={kid} onChange={setKid} />
            ) : null}
          </FormGrid>
          <PemField
            id="jose-key"
            label="Key"
            hint={KEY_HINT[action]}
            placeholder="-----BEGIN …----- or { … }"
            value={key}
            onChange={setKey}
            error={errors.key}
          />
          {action === "sign" || action === "decrypt" ? (
            <TextField
              id="jose-passphrase"
              label="Passphrase (if the key is encrypted)"
              type="password"
              autoComplete="off"
              value={passphrase}
              onChange={setPassphrase}
              error={errors.passphrase}
            />
          ) : null}
        </>
      ) : null}
      <RunRow {...form.runRow} label={RUN_LABEL[action]} pendingLabel="Working…" />
      <div id="jose-result" role="status" aria-label="JOSE result" className="grid gap-3">
        {result?.action === "verify" ? (
          <p
            className={cn(
              "rounded-md border px-3 py-2 text-sm",
              result.decoded.valid
                ? "border-success/50 bg-success/10"
                : "border-destructive/50 bg-destructive/10",
            )}
          >
            {result.decoded.valid ? "✓ The signature is valid" : "✗ Not valid"}
            {result.decoded.kid ? ` (key ${result.decoded.kid} of the set)` : ""}
            {result.decoded.reason ? `. ${result.decoded.reason}` : "."}
          </p>
        ) : null}
        {result?.action === "decode" || result?.action === "verify" ? (
          <DecodedView d={result.decoded} />
        ) : null}
        {result?.action === "sign" || result?.action === "encrypt" ? (
          <>
            <ResultBox
              id="jose-token-out"
              label={result.action === "sign" ? "Signed token (JWS)" : "Encrypted token (JWE)"}
              value={result.token}
              placeholder=""
              download={{
                filename: result.action === "sign" ? "token.jws" : "token.jwe",
                type: "text/plain",
              }}
            />
            <ResultBox id="jose-header-out" label="Protected header" value={result.header} placeholder="" />
          </>
        ) : null}
        {result?.action === "decrypt" ? (
          <>
            <ResultBox
              id="jose-plaintext"
              label={result.binary ? "Plaintext (hex: not UTF-8)" : "Plaintext"}
              value={result.plaintext}
              placeholder=""
              size="lg"
            />
            <ResultBox id="jose-header-dec" label="Protected header" value={result.header} placeholder="" />
          </>
        ) : null}
      </div>
    </form>
  );
}
