"use client";

import { ChevronRight } from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { Card } from "@/components/ui/card";
import type { Asn1TreeNode, KeySummary } from "@/core/crypto";
import { plural } from "@/core/plural";
import { TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { ToolHeading } from "../../ui/layout";
import { PemField } from "../../ui/pem-field";
import { CopyButton } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import type { InspectedBlock } from "./op";

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

const mono = "font-mono text-[13px] break-all tabular-nums";

function keyParameters(k: KeySummary): string {
  if (k.rsa)
    return `modulus ${k.rsa.modulusBits} bits, public exponent ${k.rsa.publicExponent}${k.rsa.pss ? ", RSA-PSS only" : ""}`;
  if (k.ec) return `curve ${k.ec.curve}`;
  if (k.dsa) return `p ${k.dsa.pBits} bits, q ${k.dsa.qBits} bits`;
  if (k.dh)
    return `p ${k.dh.pBits} bits${k.dh.qBits ? `, q ${k.dh.qBits} bits` : ""}${k.dh.group ? `, group ${k.dh.group}` : ", custom group"} (${k.dh.encoding} parameters)`;
  return `${k.bits} bits`;
}

function KeyRows({ k }: { k: KeySummary }) {
  return (
    <>
      <Row term="Key">
        {k.type} {k.isPrivate ? "private" : "public"} key, {k.bits} bits
      </Row>
      <Row term="Parameters">{keyParameters(k)}</Row>
    </>
  );
}

function Fingerprint({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-start justify-between gap-2">
      <span className={mono}>{value}</span>
      <CopyButton text={value} what={`${label} fingerprint`} />
    </div>
  );
}

function TreeLabel({ n }: { n: Asn1TreeNode }) {
  return (
    <span className="min-w-0">
      <span className="font-semibold">{n.name}</span>
      {n.encapsulates ? <span className="text-muted-foreground"> (encapsulates)</span> : null}
      {n.value ? (
        <>
          {" "}
          <span className={`${mono} ml-1`}>{n.value}</span>
        </>
      ) : null}{" "}
      <span className="ml-1 text-xs text-muted-foreground tabular-nums">
        @{n.offset}, {plural(n.length, "byte")}
      </span>
    </span>
  );
}

function TreeNode({ n, depth }: { n: Asn1TreeNode; depth: number }) {
  if (n.children?.length) {
    return (
      <li>
        <details open={depth < 3} className="group">
          <summary className="flex cursor-pointer list-none items-start gap-1 rounded-sm py-0.5 hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
            <ChevronRight
              className="mt-0.5 size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90"
              aria-hidden
            />
            <TreeLabel n={n} />
          </summary>
          <ul className="ml-2 border-l border-border pl-3">
            {n.children.map((c) => (
              <TreeNode key={`${c.offset}-${c.tagNumber}`} n={c} depth={depth + 1} />
            ))}
          </ul>
        </details>
      </li>
    );
  }
  return (
    <li className="flex items-start gap-1 py-0.5 pl-5">
      <TreeLabel n={n} />
    </li>
  );
}

const STATUS_TEXT = {
  valid: "Valid now",
  expired: "Expired",
  "not yet valid": "Not yet valid",
  unknown: "Unknown (unreadable dates)",
} as const;

function SanList({ sans }: { sans: { type: string; value: string }[] }) {
  return sans.length ? (
    <ul>
      {sans.map((s) => (
        <li key={`${s.type}:${s.value}`}>
          <span className="text-muted-foreground">{s.type.toUpperCase()}:</span>{" "}
          <span className={mono}>{s.value}</span>
        </li>
      ))}
    </ul>
  ) : (
    "None"
  );
}

function ExtensionList({
  extensions,
}: {
  extensions: { oid: string; name: string; critical: boolean; summary: string }[];
}) {
  return extensions.length ? (
    <ul className="grid gap-1">
      {extensions.map((x) => (
        <li key={`${x.oid}:${x.summary}`}>
          <span className="font-medium">{x.name}</span>
          {x.critical ? <span className="text-muted-foreground"> (critical)</span> : null}:{" "}
          <span className="break-all">{x.summary}</span>
        </li>
      ))}
    </ul>
  ) : (
    "None"
  );
}

function BlockCard({ b, index, count }: { b: InspectedBlock; index: number; count: number }) {
  const cert = b.certificate;
  const csr = b.csr;
  const headingId = `inspect-block-${index}`;
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby={headingId}>
        <h4 id={headingId} className="text-base font-semibold">
          {count > 1 ? `Block ${index + 1}: ` : ""}
          {b.format === "unknown" ? "Unrecognised DER" : b.format}
        </h4>
        <dl className="mt-2 divide-y divide-border">
          <Row term="Input">
            {b.label ? `PEM “${b.label}”, ` : "DER, "}
            <span className="tabular-nums">{b.byteLength.toLocaleString("en-US")} bytes</span>
          </Row>
          {b.error ? (
            <Row term="Problem">
              <span className="text-destructive">{b.error.message}</span>
            </Row>
          ) : null}
          {cert ? (
            <>
              <Row term="Subject">
                <span className={mono}>{cert.subject || "(empty)"}</span>
              </Row>
              <Row term="Issuer">
                <span className={mono}>{cert.issuer || "(empty)"}</span>
                {cert.selfIssued ? <span className="text-muted-foreground"> (self-issued)</span> : null}
              </Row>
              <Row term="Serial number">
                <span className={mono}>{cert.serial}</span>
                <span className="block text-xs text-muted-foreground tabular-nums">{cert.serialDecimal}</span>
              </Row>
              <Row term="Valid from">
                <span className="tabular-nums">{cert.notBefore}</span>
              </Row>
              <Row term="Valid until">
                <span className="tabular-nums">{cert.notAfter}</span>
              </Row>
              <Row term="Status">
                <span
                  className={
                    cert.status === "valid" ? "font-medium text-success" : "font-medium text-destructive"
                  }
                >
                  {STATUS_TEXT[cert.status]}
                </span>
                <span className="text-muted-foreground">
                  {" "}
                  (by this device's clock; the chain is not checked)
                </span>
              </Row>
              <Row term="Alternative names">
                <SanList sans={cert.subjectAltNames} />
              </Row>
              <Row term="Version">v{cert.version}</Row>
              <Row term="Signature">{cert.signatureAlgorithm}</Row>
              <Row term="Public key">
                {cert.publicKey.type}, {cert.publicKey.bits} bits
                {cert.publicKey.curve ? `, ${cert.publicKey.curve}` : ""}
                {cert.publicKey.exponent ? `, exponent ${cert.publicKey.exponent}` : ""}
              </Row>
              <Row term="Extensions">
                <ExtensionList extensions={cert.extensions} />
              </Row>
              <Row term="SHA-256 fingerprint">
                <Fingerprint label="SHA-256" value={cert.fingerprints.sha256} />
              </Row>
              <Row term="SHA-1 fingerprint">
                <Fingerprint label="SHA-1" value={cert.fingerprints.sha1} />
              </Row>
            </>
          ) : csr ? (
            <>
              <Row term="Subject">
                <span className={mono}>{csr.subject || "(empty)"}</span>
              </Row>
              <Row term="Public key">
                {csr.publicKey.type}, {csr.publicKey.bits} bits
                {csr.publicKey.curve ? `, ${csr.publicKey.curve}` : ""}
                {csr.publicKey.exponent ? `, exponent ${csr.publicKey.exponent}` : ""}
              </Row>
              <Row term="Signature">
                {csr.signatureAlgorithm}
                {b.csrSignatureValid === undefined
                  ? "; not checked (algorithm not supported here)"
                  : b.csrSignatureValid
                    ? "; ✓ signed by its own key (openssl req -verify)"
                    : "; ✗ does not verify with its own key: the request was altered or forged"}
              </Row>
              <Row term="Requested names">
                <SanList sans={csr.subjectAltNames} />
              </Row>
              <Row term="Requested extensions">
                <ExtensionList extensions={csr.extensions} />
              </Row>
              {csr.attributes.length ? <Row term="Attributes">{csr.attributes.join(", ")}</Row> : null}
            </>
          ) : b.dsaParameters ? (
            <Row term="Parameters">
              p {b.dsaParameters.pBits} bits, q {b.dsaParameters.qBits} bits (no key: domain parameters only)
            </Row>
          ) : b.key ? (
            <KeyRows k={b.key} />
          ) : null}
          {b.encryption ? (
            <Row term="Encryption">
              {b.encryption.scheme}: {b.encryption.kdf}
              {b.encryption.prf ? ` with ${b.encryption.prf}` : ""}
              {b.encryption.iterations
                ? `, ${b.encryption.iterations.toLocaleString("en-US")} iterations`
                : ""}
              {b.encryption.scrypt
                ? `, N=${b.encryption.scrypt.N} r=${b.encryption.scrypt.r} p=${b.encryption.scrypt.p}`
                : ""}
              , {b.encryption.cipher}
              {!b.key ? (
                <span className="block text-muted-foreground">
                  Enter the passphrase to see the key inside.
                </span>
              ) : null}
            </Row>
          ) : null}
        </dl>
        {b.asn1 ? (
          <div className="mt-4">
            <h5 className="text-sm font-semibold">
              ASN.1 structure{" "}
              <span className="font-normal text-muted-foreground tabular-nums">
                ({b.asn1.nodeCount.toLocaleString("en-US")} nodes
                {b.asn1.truncated ? ", truncated" : ""}
                {b.asn1.trailingBytes ? `, ${b.asn1.trailingBytes} trailing bytes` : ""})
              </span>
            </h5>
            <div className="mt-2 overflow-x-auto rounded-md border border-border bg-muted/30 p-3 text-sm">
              <ul aria-label={`ASN.1 tree${count > 1 ? ` of block ${index + 1}` : ""}`}>
                <TreeNode n={b.asn1.root} depth={0} />
              </ul>
            </div>
          </div>
        ) : null}
      </section>
    </Card>
  );
}

export default function InspectTool() {
  const [input, setInput] = useState("");
  const [passphrase, setPassphrase] = useState("");
  const form = useToolForm<InspectedBlock[]>();
  const { errors, result: blocks } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await form.submit(
      (run) => run("inspect", { input, passphrase }),
      (r) => (r.length === 1 ? "Inspected" : `Inspected ${r.length} blocks`),
    );
  }

  return (
    <div>
      <form onSubmit={onSubmit} aria-labelledby="tool-inspect" noValidate className="grid gap-3">
        <ToolHeading id="tool-inspect" title="PEM/ASN.1 inspector">
          Paste or open a certificate, a certificate request or a key as PEM (several blocks are fine), or any
          DER file, base64 or hex, to see its fields and its ASN.1 structure. Nothing is validated against a
          trust store.
        </ToolHeading>
        <PemField
          id="inspect-input"
          label="PEM, base64 or hex DER"
          value={input}
          onChange={setInput}
          error={errors.input}
          rows={8}
        />
        <TextField
          id="inspect-passphrase"
          label="Passphrase (to open an encrypted private key)"
          type="password"
          autoComplete="off"
          value={passphrase}
          onChange={setPassphrase}
          error={errors.passphrase}
          className="sm:max-w-sm"
        />
        <RunRow {...form.runRow} label="Inspect" pendingLabel="Reading…" />
      </form>
      <div className="grid gap-4" aria-live="polite">
        {blocks ? (
          blocks.map((b, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no identity beyond their position
            <BlockCard key={i} b={b} index={i} count={blocks.length} />
          ))
        ) : (
          <p className="rounded-md border border-dashed border-border p-4 text-sm text-muted-foreground">
            The fields and the ASN.1 tree appear here. Try a certificate made with{" "}
            <code className="font-mono">openssl req -x509</code>, or a key from the Key generation tool.
          </p>
        )}
      </div>
    </div>
  );
}
