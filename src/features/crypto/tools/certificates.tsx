"use client";

import { type FormEvent, useState } from "react";
import type { ChainResult } from "@/core/crypto";
import { cn } from "@/lib/utils";
import {
  emptyPrivateKey,
  FormGrid,
  PemField,
  PrivateKeyFields,
  ResultBox,
  RunRow,
  SelectField,
  TextField,
  ToolHeading,
  useToolForm,
} from "../ui";

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
          value={make === "self-signed" ? days : ""}
          placeholder={make === "csr" ? "Set by the CA" : undefined}
          disabled={make !== "self-signed"}
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
  valid: "valid now",
  expired: "expired",
  "not yet valid": "not yet valid",
  unknown: "unknown",
};

function ChainForm() {
  const [chain, setChain] = useState("");
  const [trusted, setTrusted] = useState("");
  const form = useToolForm<ChainResult>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await form.submit(
      (run) => run("verifyChain", { chain, trusted }),
      (r) => (r.valid ? "The chain verifies" : null),
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="chain-heading" noValidate className="grid gap-3">
      <h4 id="chain-heading" className="text-base font-semibold">
        Verify a certificate chain
      </h4>
      <PemField
        id="chain-certs"
        label="Certificates, leaf first"
        hint="As a server sends them (e.g. a fullchain.pem); the last is the root or is signed by a trusted one"
        value={chain}
        onChange={setChain}
        error={errors.chain}
        rows={8}
      />
      <PemField
        id="chain-trusted"
        label="Trusted root certificates (optional)"
        hint="Needed when the chain does not include its self-signed root"
        value={trusted}
        onChange={setTrusted}
        error={errors.trusted}
        rows={4}
      />
      <RunRow {...form.runRow} label="Verify chain" pendingLabel="Verifying…" />
      <div
        id="chain-result"
        role="status"
        aria-label="Chain verification"
        className={cn(
          "grid min-h-12 gap-2 rounded-md border px-3 py-2 text-sm",
          !result && "border-dashed border-border text-muted-foreground",
          result?.valid && "border-success/50 bg-success/10",
          result && !result.valid && "border-destructive/50 bg-destructive/10",
        )}
      >
        {result ? (
          <>
            <p className={cn("font-medium", result.valid ? "text-success" : "text-destructive")}>
              {result.valid ? "✓ The chain verifies" : "✗ The chain does not verify"}
            </p>
            <ol className="grid gap-1">
              {result.links.map((l, i) => (
                <li key={`${l.subject}|${l.issuer}|${l.notBefore}`} className="text-foreground">
                  <span className="font-medium">
                    {i + 1}. {l.subject || "(no subject)"}
                  </span>{" "}
                  <span className="text-muted-foreground">
                    issued by {l.issuer || "(no issuer)"}; {STATUS[l.status]} ({l.notBefore} to {l.notAfter});
                    signature {l.signatureValid ? "valid" : "not verified"}
                    {l.selfSigned ? "; self-signed" : ""}
                  </span>
                </li>
              ))}
            </ol>
            {result.problems.length ? (
              <ul className="list-disc pl-5 text-foreground">
                {result.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            ) : null}
          </>
        ) : (
          "Paste the chain (and, if the root is not in it, the trusted root) and press Verify chain."
        )}
      </div>
      <p className="text-xs text-muted-foreground">
        Checked: each signature by the next certificate's key, issuer names, that each issuer is a CA
        (basicConstraints, keyUsage), validity dates by this device's clock, and the end at a self-signed or
        trusted root. Not checked: revocation, extended key usage, name constraints and path length; use{" "}
        <code className="font-mono">openssl verify</code> for those.
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
