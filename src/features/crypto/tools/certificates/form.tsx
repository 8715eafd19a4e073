"use client";

import { type FormEvent, useState } from "react";
import type { ChainPurpose, ChainResult } from "@/core/crypto";
import { cn } from "@/lib/utils";
import { SelectField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { emptyPrivateKey, PemField, PrivateKeyFields } from "../../ui/pem-field";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";

function CreateForm() {
  const [key, setKey] = useState(emptyPrivateKey);
  const [make, setMake] = useState<"csr" | "self-signed">("csr");
  const [subject, setSubject] = useState("/CN=example.com/O=Example Ltd");
  const [sans, setSans] = useState("DNS:example.com, DNS:www.example.com");
  const [days, setDays] = useState("365");
  const form = useToolForm<{ pem: string; der: string; summary: string; make: "csr" | "self-signed" }>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const d = Number(days);
    if (make === "self-signed" && (!/^\d+$/.test(days.trim()) || d < 1)) {
      return form.setErrors({ days: "Days must be a whole number, at least 1" });
    }
    await form.submit(
      async (run) => ({
        ...(await run("createCertificate", {
          privateKey: key.key,
          passphrase: key.passphrase,
          make,
          subject,
          subjectAltNames: sans,
          days: d,
        })),
        make,
      }),
      make === "csr" ? "Certificate request created" : "Self-signed certificate created",
    );
  }

  const csr = (result?.make ?? make) === "csr";
  return (
    <form onSubmit={onSubmit} aria-labelledby="cert-create-heading" noValidate className="grid gap-3">
      <h4 id="cert-create-heading" className="text-base font-semibold">
        Create a request or a self-signed certificate
      </h4>
      <PrivateKeyFields prefix="cert" value={key} onChange={setKey} errors={errors} />
      <FormGrid>
        <SelectField
          id="cert-make"
          label="Make"
          value={make}
          onChange={(v) => setMake(v as "csr" | "self-signed")}
          options={[
            { value: "csr", label: "Certificate signing request (openssl req -new)" },
            { value: "self-signed", label: "Self-signed certificate (openssl req -x509)" },
          ]}
        />
        <TextField
          id="cert-days"
          label="Valid for (days)"
          inputMode="numeric"
          value={days}
          off={make === "self-signed" ? undefined : "Set by the CA"}
          onChange={setDays}
          error={errors.days}
        />
      </FormGrid>
      <TextField
        id="cert-subject"
        label="Subject"
        hint="As openssl -subj takes it (/CN=…/O=…/C=GB) or as it prints it (CN=…, O=…)"
        value={subject}
        onChange={setSubject}
        error={errors.subject}
      />
      <TextField
        id="cert-sans"
        label="Alternative names (optional)"
        hint="DNS:name, IP:192.0.2.1, email:a@b, URI:https://…, separated by commas"
        value={sans}
        onChange={setSans}
        error={errors.subjectAltNames}
      />
      <RunRow {...form.runRow} label="Create" pendingLabel="Signing…" />
      <ResultBox
        id="cert-result"
        label={csr ? "Certificate request (PEM)" : "Certificate (PEM)"}
        size="lg"
        value={result?.pem ?? ""}
        placeholder="Paste a private key, fill in the subject and press Create; the PEM appears here."
        download={result ? { filename: csr ? "request.csr" : "certificate.pem" } : undefined}
      >
        {result?.summary ?? ""}
      </ResultBox>
    </form>
  );
}

const STATUS = {
  valid: "valid",
  expired: "expired",
  "not yet valid": "not yet valid",
  unknown: "unknown",
};

const PURPOSES = [
  { value: "any", label: "Any (openssl verify's default)" },
  { value: "sslserver", label: "TLS server (-purpose sslserver)" },
  { value: "sslclient", label: "TLS client (-purpose sslclient)" },
] as const;

const HEADLINE: Record<ChainResult["verdict"], string> = {
  verified: "✓ The chain verifies to a trusted root",
  failed: "✗ The chain does not verify",
  "no trust anchor": "Unverified: no trust anchor",
};

/** `openssl verify`'s -attime: whole seconds since 1970. */
const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function ChainForm() {
  const [chain, setChain] = useState("");
  const [trusted, setTrusted] = useState("");
  const [when, setWhen] = useState("");
  const [purpose, setPurpose] = useState<ChainPurpose>("any");
  const form = useToolForm<ChainResult & { now: boolean }>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // A datetime-local value is the device's local time; the worker gets the instant.
    const at = when ? new Date(when) : null;
    if (at && Number.isNaN(at.getTime())) {
      return form.setErrors({ at: "Enter a date and time, or leave it empty for now" });
    }
    await form.submit(
      async (run) => ({
        ...(await run("verifyChain", { chain, trusted, at: at?.toISOString() ?? "", purpose })),
        now: !at,
      }),
      (r) => (r.valid ? "The chain verifies" : null),
    );
  }

  const command = result
    ? [
        "openssl verify -CAfile trusted.pem -untrusted chain.pem",
        result.now ? "" : `-attime ${epochSeconds(result.at)}`,
        purpose === "any" ? "" : `-purpose ${purpose}`,
        "leaf.pem",
      ]
        .filter(Boolean)
        .join(" ")
    : "";
  return (
    <form onSubmit={onSubmit} aria-labelledby="chain-heading" noValidate className="grid gap-3">
      <h4 id="chain-heading" className="text-base font-semibold">
        Verify a certificate chain
      </h4>
      <PemField
        id="chain-certs"
        certificates
        label="Certificates, leaf first"
        hint="As a server sends them (e.g. a fullchain.pem): the leaf, then the intermediates in any order"
        value={chain}
        onChange={setChain}
        error={errors.chain}
        rows={8}
      />
      <PemField
        id="chain-trusted"
        certificates
        label="Trusted root certificates"
        hint="The roots you trust, from your CA or your system's store. The chain must reach one of them; a self-signed certificate inside the chain is never trusted"
        value={trusted}
        onChange={setTrusted}
        error={errors.trusted}
        rows={4}
      />
      <FormGrid>
        <TextField
          id="chain-at"
          label="Verify at (your local time)"
          type="datetime-local"
          step={1}
          hint="Empty: now, by this device's clock (openssl verify -attime)"
          value={when}
          onChange={setWhen}
          error={errors.at}
        />
        <SelectField
          id="chain-purpose"
          label="Purpose"
          value={purpose}
          onChange={(v) => setPurpose(v as ChainPurpose)}
          options={PURPOSES}
          error={errors.purpose}
        />
      </FormGrid>
      <RunRow {...form.runRow} label="Verify chain" pendingLabel="Verifying…" />
      <div
        id="chain-result"
        role="status"
        aria-label="Chain verification"
        className={cn(
          "grid min-h-12 gap-2 rounded-md border px-3 py-2 text-sm",
          !result && "border-dashed border-border text-muted-foreground",
          result?.verdict === "verified" && "border-success/50 bg-success/10",
          result?.verdict === "failed" && "border-destructive/50 bg-destructive/10",
          result?.verdict === "no trust anchor" && "border-amber-500/60 bg-amber-500/10",
        )}
      >
        {result ? (
          <>
            <p
              className={cn(
                "font-medium",
                result.verdict === "verified" && "text-success",
                result.verdict === "failed" && "text-destructive",
                result.verdict === "no trust anchor" && "text-foreground",
              )}
            >
              {HEADLINE[result.verdict]}
            </p>
            <p className="text-muted-foreground">
              Checked at {result.at.replace(/\.\d{3}Z$/, "Z")}
              {result.now ? " (now)" : ""}
              {purpose === "any" ? "" : `, for ${purpose === "sslserver" ? "a TLS server" : "a TLS client"}`}.
            </p>
            <ol className="grid gap-1">
              {result.links.map((l, i) => (
                <li key={`${l.subject}|${l.issuer}|${l.notBefore}`} className="break-words text-foreground">
                  <span className="font-medium">
                    {i + 1}. {l.subject || "(no subject)"}
                  </span>{" "}
                  <span className="text-muted-foreground">
                    {l.trusted ? "(trusted) " : ""}issued by {l.issuer || "(no issuer)"}; {STATUS[l.status]} (
                    {l.notBefore} to {l.notAfter}); signature {l.signatureValid ? "valid" : "not verified"}
                    {l.selfSigned ? "; self-signed" : ""}
                  </span>
                </li>
              ))}
            </ol>
            {result.unused.length ? (
              <p className="text-muted-foreground">Not on the path: {result.unused.join("; ")}</p>
            ) : null}
            {result.problems.length ? (
              <ul className="list-disc pl-5 text-foreground">
                {result.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            ) : null}
            <p className="text-muted-foreground">
              The same with OpenSSL: <code className="font-mono text-xs break-all">{command}</code>
            </p>
          </>
        ) : (
          "Paste the chain and the roots you trust, and press Verify chain."
        )}
      </div>
      <p className="text-xs text-muted-foreground">
        Decided as <code className="font-mono">openssl verify</code> decides: the path from the leaf must
        reach one of the trusted roots (matched by name and key identifier, and verified by its key), every
        signature verifies, every certificate is in its validity period at the chosen time, every issuer is a
        CA (basicConstraints, keyUsage keyCertSign) within its path length, and with a purpose, the extended
        key usage fits. Not checked: revocation, name constraints and certificate policies.
      </p>
    </form>
  );
}

/** PKCS#10 requests and self-signed certificates, and chain verification. */
export default function CertificatesTool() {
  return (
    <section aria-labelledby="tool-certs">
      <ToolHeading id="tool-certs" title="Certificates">
        Make a certificate signing request or a self-signed certificate from a key (RSA, EC, Ed25519 or
        Ed448), and check a certificate chain. To read a certificate's fields, use the inspector.
      </ToolHeading>
      <div className="grid gap-10">
        <CreateForm />
        <ChainForm />
      </div>
    </section>
  );
}
