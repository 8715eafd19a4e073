"use client";

import { type FormEvent, useState } from "react";
import { HASH_OPTIONS, type HASHES } from "../../constants";
import { formatBytes } from "../../format";
import { DataField, type DataValue, dataSpec, emptyData } from "../../ui/data-field";
import { SelectField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import type { SymmetricArgs, SymmetricResult } from "./op";

const CIPHERS = [
  { value: "AES-256-CBC", label: "AES-256-CBC" },
  { value: "AES-192-CBC", label: "AES-192-CBC" },
  { value: "AES-128-CBC", label: "AES-128-CBC" },
  { value: "AES-256-CTR", label: "AES-256-CTR" },
  { value: "AES-192-CTR", label: "AES-192-CTR" },
  { value: "AES-128-CTR", label: "AES-128-CTR" },
  { value: "AES-256-GCM", label: "AES-256-GCM (key and IV; tag appended)" },
  { value: "AES-192-GCM", label: "AES-192-GCM (key and IV; tag appended)" },
  { value: "AES-128-GCM", label: "AES-128-GCM (key and IV; tag appended)" },
] as const;

type Cipher = (typeof CIPHERS)[number]["value"];

const KEY_BYTES: Record<string, number> = { "128": 16, "192": 24, "256": 32 };

/** OpenSSL's digest name: SHA-1 → sha1, SHA-512/256 → sha512-256, SHA3-256 → sha3-256, RIPEMD-160 → ripemd160. */
function opensslMd(hash: string): string {
  return hash.toLowerCase().replace(/^sha-/, "sha").replace("/", "-").replace("ripemd-", "ripemd");
}

/** `openssl enc` in the page: AES-CBC/CTR with `-pbkdf2` passwords or `-K`/`-iv`, and AES-GCM. */
export default function EncryptTool() {
  const [direction, setDirection] = useState<SymmetricArgs["direction"]>("encrypt");
  const [cipher, setCipher] = useState<Cipher>("AES-256-CBC");
  const [keyMode, setKeyMode] = useState<SymmetricArgs["keyMode"]>("password");
  const [password, setPassword] = useState("");
  const [kdf, setKdf] = useState<SymmetricArgs["kdf"]>("pbkdf2");
  const [iterations, setIterations] = useState("10000");
  const [hash, setHash] = useState<(typeof HASHES)[number]>("SHA-256");
  const [key, setKey] = useState("");
  const [iv, setIv] = useState("");
  const [aad, setAad] = useState<DataValue>(emptyData());
  const [data, setData] = useState<DataValue>(emptyData());
  const [output, setOutput] = useState<SymmetricArgs["output"]>("base64-lines");
  const form = useToolForm<SymmetricResult & { direction: SymmetricArgs["direction"] }>();
  const { errors, result } = form;

  const gcm = cipher.endsWith("GCM");
  const mode = gcm ? "raw" : keyMode;
  const bits = cipher.slice(4, 7);
  const ivBytes = gcm ? 12 : 16;
  const ctr = cipher.endsWith("CTR");

  function switchDirection(d: SymmetricArgs["direction"]) {
    setDirection(d);
    setData(emptyData(d === "encrypt" ? "utf8" : "base64"));
    setOutput(d === "encrypt" ? "base64-lines" : "utf8");
    form.setResult(null);
    form.setErrors({});
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const spec = dataSpec(data);
    if (!spec) return form.setErrors({ data: "Choose a file" });
    const aadSpec = gcm ? dataSpec(aad) : null;
    const it = Number(iterations.replace(/[\s_,]/g, ""));
    if (mode === "password" && kdf === "pbkdf2" && (!Number.isSafeInteger(it) || it < 1)) {
      return form.setErrors({ iterations: "Iterations must be a whole number of at least 1" });
    }
    await form.submit(
      async (run) => ({
        ...(await run(
          "symmetric",
          {
            direction,
            cipher,
            keyMode: mode,
            password,
            kdf,
            iterations: it,
            hash,
            key,
            iv,
            aad: aadSpec,
            data: spec,
            output,
          },
          { dedicated: spec.kind === "file" },
        )),
        direction,
      }),
      direction === "encrypt"
        ? "Encrypted"
        : cipher.endsWith("CTR")
          ? "Decrypted; CTR cannot tell a wrong password or key: if the text is garbage, that is why"
          : "Decrypted",
    );
  }

  const outputOptions =
    direction === "encrypt"
      ? [
          { value: "base64-lines", label: "Base64 in lines (openssl enc -a)" },
          { value: "base64", label: "Base64, one line (-A)" },
          { value: "hex", label: "Hex" },
        ]
      : [
          { value: "utf8", label: "Text (UTF-8)" },
          { value: "hex", label: "Hex" },
          { value: "base64", label: "Base64" },
        ];

  const resultNote = result
    ? [
        result.readAsBase64 ? "The file is Base64 text (openssl enc -a): decoded first." : "",
        result.value ? "" : formatBytes(result.bytes.length),
        result.shownAs !== output
          ? `Not valid UTF-8 text, so shown as hex${result.direction === "decrypt" && ctr ? " (with CTR, a wrong password or key gives such bytes: it cannot be detected)" : ""}.`
          : "",
        result.salt ? `salt=${result.salt.toUpperCase()}` : "",
        result.key ? `key=${result.key.toUpperCase()}` : "",
        result.iv ? `iv=${result.iv.toUpperCase()}` : "",
      ]
        .filter(Boolean)
        .join(" · ")
    : "";

  const openssl =
    mode === "password"
      ? `openssl enc -${cipher.toLowerCase()}${direction === "decrypt" ? " -d" : ""}${kdf === "pbkdf2" ? ` -pbkdf2${iterations !== "10000" ? ` -iter ${iterations}` : ""}` : ""}${hash !== "SHA-256" ? ` -md ${opensslMd(hash)}` : ""}${output.startsWith("base64") || (direction === "decrypt" && data.kind === "base64") ? " -a" : ""}${direction === "encrypt" && output === "base64" ? " -A" : ""} -in … -out …`
      : gcm
        ? "openssl enc has no AEAD ciphers: the ciphertext is followed by its 16-byte tag, as WebCrypto, Go and Node write it"
        : `openssl enc -${cipher.toLowerCase()}${direction === "decrypt" ? " -d" : ""} -K <key> -iv <iv> -in … -out …`;

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-encrypt" noValidate className="grid gap-3">
      <ToolHeading id="tool-encrypt" title="Symmetric encryption">
        AES as <code className="font-mono">openssl enc</code> does it: a password (<code>-pbkdf2</code>, with
        the <code>Salted__</code> header) or a key and IV in hex, in CBC or CTR; and AES-GCM with a key, an IV
        and optional associated data. Files open and save as OpenSSL reads and writes them.
      </ToolHeading>
      <FormGrid>
        <SelectField
          id="enc-direction"
          label="Direction"
          value={direction}
          onChange={(v) => switchDirection(v as SymmetricArgs["direction"])}
          options={[
            { value: "encrypt", label: "Encrypt" },
            { value: "decrypt", label: "Decrypt" },
          ]}
        />
        <SelectField
          id="enc-cipher"
          label="Cipher"
          value={cipher}
          onChange={(v) => setCipher(v as Cipher)}
          options={CIPHERS}
        />
      </FormGrid>
      <DataField
        id="enc-data"
        label={direction === "encrypt" ? "Plaintext" : "Ciphertext"}
        value={data}
        onChange={setData}
        rows={4}
        error={errors.data}
      />
      <SelectField
        id="enc-key-mode"
        label="Key from"
        value={mode}
        onChange={(v) => setKeyMode(v as SymmetricArgs["keyMode"])}
        disabled={gcm}
        options={[
          { value: "password", label: "A password (openssl enc -pass)" },
          { value: "raw", label: "A key and IV in hex (-K, -iv)" },
        ]}
        {...(gcm ? { hint: "GCM takes a key and IV: openssl enc has no password form for it." } : {})}
      />
      {mode === "password" ? (
        <>
          <TextField
            id="enc-password"
            label="Password"
            type="password"
            autoComplete="off"
            value={password}
            onChange={setPassword}
            error={errors.password}
          />
          <FormGrid className="sm:grid-cols-3">
            <SelectField
              id="enc-kdf"
              label="Key derivation"
              value={kdf}
              onChange={(v) => setKdf(v as SymmetricArgs["kdf"])}
              options={[
                { value: "pbkdf2", label: "PBKDF2 (-pbkdf2)" },
                { value: "legacy", label: "Legacy EVP_BytesToKey (no -pbkdf2)" },
              ]}
            />
            <TextField
              id="enc-iterations"
              label="Iterations (-iter)"
              inputMode="numeric"
              value={kdf === "pbkdf2" ? iterations : "1"}
              disabled={kdf !== "pbkdf2"}
              onChange={setIterations}
              error={errors.iterations}
            />
            <SelectField
              id="enc-md"
              label="Digest (-md)"
              value={hash}
              onChange={(v) => setHash(v as typeof hash)}
              options={HASH_OPTIONS}
            />
          </FormGrid>
        </>
      ) : (
        <FormGrid>
          <TextField
            id="enc-key"
            label={`Key (${KEY_BYTES[bits] ?? 32} bytes, hex)`}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={key}
            onChange={setKey}
            error={errors.key}
          />
          <TextField
            id="enc-iv"
            label={`IV (${ivBytes} bytes, hex)`}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={iv}
            onChange={setIv}
            error={errors.iv}
          />
        </FormGrid>
      )}
      {gcm ? (
        <DataField
          id="enc-aad"
          label="Associated data (optional, authenticated but not encrypted)"
          value={aad}
          onChange={setAad}
          kinds={["utf8", "hex", "base64"]}
          rows={2}
          error={errors.aad}
        />
      ) : null}
      <SelectField
        id="enc-output"
        label="Output"
        value={output}
        onChange={(v) => setOutput(v as SymmetricArgs["output"])}
        options={outputOptions}
      />
      <p className="text-xs text-muted-foreground">
        OpenSSL: <code className="font-mono break-all">{openssl}</code>
      </p>
      <RunRow
        {...form.runRow}
        label={direction === "encrypt" ? "Encrypt" : "Decrypt"}
        pendingLabel={direction === "encrypt" ? "Encrypting…" : "Decrypting…"}
      />
      <ResultBox
        id="enc-result"
        label={direction === "decrypt" ? "Decrypted plaintext" : "Encrypted output"}
        value={result?.value ?? ""}
        placeholder={
          result
            ? "Too long to show here: save it with the download button."
            : "Enter the input and the password or key, then press the button; the result appears here."
        }
        download={
          result
            ? result.direction === "encrypt" && result.shownAs.startsWith("base64") && result.value
              ? // What openssl enc -a writes (and -d -a reads): the Base64 text, ending in a newline.
                {
                  filename: "encrypted.b64",
                  type: "text/plain",
                  bytes: new TextEncoder().encode(`${result.value}\n`),
                }
              : {
                  filename: result.direction === "encrypt" ? "encrypted.bin" : "decrypted.bin",
                  bytes: result.bytes,
                }
            : undefined
        }
      >
        {resultNote}
      </ResultBox>
    </form>
  );
}
