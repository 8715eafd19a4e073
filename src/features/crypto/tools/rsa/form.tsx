"use client";

import { type FormEvent, useState } from "react";
import { OUTPUT_OPTIONS } from "../../constants";
import type { OutputEncoding } from "../../op-base";
import { DataField, type DataValue, dataSpec, emptyData } from "../../ui/data-field";
import { OutputField, SelectField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { emptyPrivateKey, PemField, PrivateKeyFields } from "../../ui/pem-field";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import type { RsaPadding } from "./op";

const PADDINGS = [
  { value: "OAEP-SHA-256", label: "OAEP with SHA-256" },
  { value: "OAEP-SHA-1", label: "OAEP with SHA-1" },
  { value: "PKCS1v1.5", label: "PKCS#1 v1.5 (legacy)" },
];

function EncryptForm() {
  const [publicKey, setPublicKey] = useState("");
  const [data, setData] = useState<DataValue>(emptyData());
  const [padding, setPadding] = useState<RsaPadding>("OAEP-SHA-256");
  const [output, setOutput] = useState<OutputEncoding>("base64");
  const form = useToolForm<{ value: string; maxLength: number; output: OutputEncoding }>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const spec = dataSpec(data);
    if (!spec) return form.setErrors({ data: "Choose a file to encrypt" });
    await form.submit(
      async (run) => ({ ...(await run("rsaEncrypt", { publicKey, data: spec, padding, output })), output }),
      "Encrypted",
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="rsa-encrypt-heading" noValidate className="grid gap-3">
      <h4 id="rsa-encrypt-heading" className="text-base font-semibold">
        Encrypt
      </h4>
      <PemField
        id="rsa-enc-key"
        label="Public key"
        hint="PEM (SPKI or PKCS#1), base64 or hex DER; a certificate or a private key works too"
        value={publicKey}
        onChange={setPublicKey}
        error={errors.publicKey}
      />
      <DataField
        id="rsa-enc-data"
        label="Message"
        value={data}
        onChange={setData}
        rows={3}
        error={errors.data}
      />
      <FormGrid>
        <SelectField
          id="rsa-enc-padding"
          label="Padding"
          value={padding}
          onChange={(v) => setPadding(v as RsaPadding)}
          options={PADDINGS}
        />
        <OutputField id="rsa-enc-output" value={output} onChange={setOutput} />
      </FormGrid>
      <RunRow {...form.runRow} label="Encrypt" pendingLabel="Encrypting…" />
      <ResultBox
        id="rsa-enc-result"
        label="Ciphertext"
        value={result?.value ?? ""}
        download={result ? { filename: "ciphertext.bin", binary: result.output } : undefined}
        placeholder="Paste a public key, type a message and press Encrypt; the ciphertext appears here."
      >
        {result ? `This key and padding take messages of up to ${result.maxLength} bytes.` : ""}
      </ResultBox>
    </form>
  );
}

function DecryptForm() {
  const [key, setKey] = useState(emptyPrivateKey);
  const [data, setData] = useState<DataValue>(emptyData("base64"));
  const [padding, setPadding] = useState<RsaPadding>("OAEP-SHA-256");
  const [output, setOutput] = useState<"utf8" | OutputEncoding>("utf8");
  const form = useToolForm<{ value: string; shownAs: "utf8" | OutputEncoding }>();
  const { errors, result } = form;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const spec = dataSpec(data);
    if (!spec) return form.setErrors({ data: "Choose the ciphertext file (e.g. OpenSSL's .bin)" });
    await form.submit(
      (run) =>
        run("rsaDecrypt", { privateKey: key.key, passphrase: key.passphrase, data: spec, padding, output }),
      "Decrypted",
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="rsa-decrypt-heading" noValidate className="grid gap-3">
      <h4 id="rsa-decrypt-heading" className="text-base font-semibold">
        Decrypt
      </h4>
      <PrivateKeyFields prefix="rsa-dec" value={key} onChange={setKey} errors={errors} />
      <DataField
        id="rsa-dec-data"
        label="Ciphertext"
        value={data}
        onChange={setData}
        kinds={["base64", "hex", "file"]}
        rows={3}
        error={errors.data}
      />
      <FormGrid>
        <SelectField
          id="rsa-dec-padding"
          label="Padding"
          value={padding}
          onChange={(v) => setPadding(v as RsaPadding)}
          options={PADDINGS}
        />
        <SelectField
          id="rsa-dec-output"
          label="Show plaintext as"
          value={output}
          onChange={(v) => setOutput(v as "utf8" | OutputEncoding)}
          options={[{ value: "utf8", label: "Text (UTF-8)" }, ...OUTPUT_OPTIONS]}
        />
      </FormGrid>
      <RunRow {...form.runRow} label="Decrypt" pendingLabel="Decrypting…" />
      <ResultBox
        id="rsa-dec-result"
        label="Plaintext"
        value={result?.value ?? ""}
        download={
          result && result.shownAs !== "utf8"
            ? { filename: "plaintext.bin", binary: result.shownAs }
            : undefined
        }
        placeholder="Paste the private key and the ciphertext and press Decrypt; the plaintext appears here."
      >
        {result && result.shownAs !== output ? "Not valid UTF-8 text, so shown as hex." : ""}
      </ResultBox>
    </form>
  );
}

export default function RsaTool() {
  return (
    <section aria-labelledby="tool-rsa">
      <ToolHeading id="tool-rsa" title="RSA encryption">
        Encrypt a short message to an RSA public key and decrypt it with the private key. OAEP is the padding
        to use; PKCS#1 v1.5 is here for old systems only.
      </ToolHeading>
      <div className="grid gap-10">
        <EncryptForm />
        <DecryptForm />
      </div>
    </section>
  );
}
