"use client";

import { type FormEvent, useState } from "react";
import { DataField, type DataValue, dataSpec, emptyData } from "../../ui/data-field";
import { TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { SectionHeading, ToolHeading } from "../../ui/layout";
import { emptyPrivateKey, PemField, PrivateKeyFields } from "../../ui/pem-field";
import { DownloadButton, ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import type { Pkcs12Opened } from "./op";

function OpenForm() {
  const [file, setFile] = useState<DataValue>({ ...emptyData("base64"), kind: "file" });
  const [password, setPassword] = useState("");
  const form = useToolForm<Pkcs12Opened>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const spec = dataSpec(file);
    if (!spec) return form.setErrors({ file: "Choose the .p12 or .pfx file" });
    await form.submit(
      (run) => run("pkcs12Open", { file: spec, password }),
      (r) => `Opened: ${r.certificates.length} certificate(s), ${r.keys.length} key(s)`,
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="p12-open-heading" noValidate className="grid gap-3">
      <SectionHeading>
        <span id="p12-open-heading">Open a PKCS#12 file</span>
      </SectionHeading>
      <DataField
        id="p12-file"
        label="PKCS#12 file (.p12, .pfx)"
        value={file}
        onChange={setFile}
        kinds={["file", "base64"]}
        rows={3}
        error={errors.file}
      />
      <TextField
        id="p12-password"
        label="Password"
        type="password"
        autoComplete="off"
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
      <RunRow {...form.runRow} label="Open" pendingLabel="Opening…" />
      <div id="p12-result" role="status" aria-label="PKCS#12 contents" className="grid gap-3">
        {result ? (
          <>
            <p className="text-sm text-muted-foreground">
              MAC: {result.mac}.{" "}
              {result.legacy
                ? "Legacy encryption (RC2, 3DES or a SHA-1 MAC): OpenSSL 3 reads it only with openssl pkcs12 -legacy."
                : "Modern encryption: OpenSSL 3 reads it as it is."}
            </p>
            {result.keys.map((k, i) => (
              <ResultBox
                key={k.pem}
                id={`p12-key-${i}`}
                label={`Private key ${i + 1} (${k.type} ${k.bits}${k.friendlyName ? `, “${k.friendlyName}”` : ""})`}
                value={k.pem}
                placeholder=""
                size="lg"
                download={{ filename: "key.pem" }}
              >
                Stored with {k.protection}
              </ResultBox>
            ))}
            {result.certificates.map((c, i) => (
              <ResultBox
                key={c.pem}
                id={`p12-cert-${i}`}
                label={`Certificate ${i + 1}: ${c.subject}`}
                value={c.pem}
                placeholder=""
                size="lg"
                download={{ filename: `certificate-${i + 1}.pem` }}
              >
                Issuer {c.issuer}; valid until {new Date(c.notAfter).toLocaleString()}
                {c.friendlyName ? `; “${c.friendlyName}”` : ""}
              </ResultBox>
            ))}
          </>
        ) : null}
      </div>
    </form>
  );
}

function CreateForm() {
  const [key, setKey] = useState(emptyPrivateKey);
  const [chain, setChain] = useState("");
  const [password, setPassword] = useState("");
  const [name, setName] = useState("");
  const form = useToolForm<{ bytes: Uint8Array; certificates: number }>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await form.submit(
      (run) =>
        run("pkcs12Create", {
          privateKey: key.key,
          passphrase: key.passphrase,
          chain,
          password,
          friendlyName: name,
        }),
      "PKCS#12 file made",
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="p12-create-heading" noValidate className="grid gap-3">
      <SectionHeading>
        <span id="p12-create-heading">Make a PKCS#12 file</span>
      </SectionHeading>
      <PrivateKeyFields prefix="p12" value={key} onChange={setKey} errors={errors} />
      <PemField
        id="p12-chain"
        certificates
        label="Certificates, leaf first"
        hint="The key's certificate, then its intermediates"
        value={chain}
        onChange={setChain}
        error={errors.chain}
      />
      <TextField
        id="p12-new-password"
        label="Password for the file"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
      <TextField id="p12-name" label="Friendly name (optional)" value={name} onChange={setName} />
      <RunRow {...form.runRow} label="Make file" pendingLabel="Making…" />
      <div
        className="flex min-h-8 flex-wrap items-center gap-3 text-sm"
        role="status"
        aria-label="PKCS#12 file"
      >
        {result ? (
          <>
            <DownloadButton text="" bytes={result.bytes} filename="bundle.p12" what="PKCS#12 file" />
            <span className="text-muted-foreground">
              {result.certificates} certificate(s) and the key, AES-256-CBC and an HMAC-SHA-256 MAC, as
              openssl pkcs12 -export writes it; check it with: openssl pkcs12 -in bundle.p12 -info -nodes
            </span>
          </>
        ) : null}
      </div>
    </form>
  );
}

/** PKCS#12 / PFX bundles: open them to see what they hold, or make one from a key and its chain. */
export default function Pkcs12Tool() {
  return (
    <div className="grid gap-8">
      <ToolHeading id="tool-pkcs12" title="PKCS#12 / PFX">
        Open a .p12 or .pfx with its password to see its certificates and private key as PEM (also the legacy
        RC2 and 3DES files OpenSSL 3 reads only with <code className="font-mono text-[0.9em]">-legacy</code>),
        or bundle a key and its chain into one.
      </ToolHeading>
      <OpenForm />
      <CreateForm />
    </div>
  );
}
