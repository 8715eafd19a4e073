"use client";

import { type FormEvent, useState } from "react";
import { SelectField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { PemField } from "../../ui/pem-field";
import { CopyButton, ResultBox } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import type { SshResult, SshTarget } from "./op";

const TARGETS = [
  { value: "none", label: "Fingerprints only (ssh-keygen -l)" },
  { value: "openssh", label: "OpenSSH private key (ssh-keygen's format)" },
  { value: "authorized", label: "authorized_keys / .pub line (ssh-keygen -y)" },
  { value: "pkcs8", label: "PEM private key, PKCS#8 (ssh-keygen -m PKCS8)" },
  { value: "spki", label: "PEM public key (ssh-keygen -e -m PKCS8)" },
];

/** OpenSSH keys: fingerprints as ssh-keygen prints them, and conversion to and from PEM. */
export default function SshTool() {
  const [input, setInput] = useState("");
  const [passphrase, setPassphrase] = useState("");
  const [target, setTarget] = useState<SshTarget>("none");
  const [newPassphrase, setNewPassphrase] = useState("");
  const [comment, setComment] = useState("");
  const [rounds, setRounds] = useState("16");
  const form = useToolForm<SshResult>();
  const { errors, result } = form;
  const encrypts = target === "openssh" || target === "pkcs8";

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await form.submit(
      (run) =>
        run(
          "sshKey",
          {
            input,
            passphrase,
            target,
            newPassphrase: encrypts ? newPassphrase : "",
            comment,
            rounds: Number(rounds),
          },
          { dedicated: true },
        ),
      (r) => (r.output ? "Converted" : `${r.keys.length} key${r.keys.length === 1 ? "" : "s"} read`),
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-ssh" noValidate className="grid gap-3">
      <ToolHeading id="tool-ssh" title="OpenSSH keys">
        Fingerprints as <code className="font-mono text-[0.9em]">ssh-keygen -l</code> prints them (SHA256 and
        MD5), OpenSSH private keys (plain or encrypted with a passphrase),{" "}
        <code className="font-mono text-[0.9em]">authorized_keys</code> lines, and conversion to and from PEM.
        Ed25519, ECDSA and RSA.
      </ToolHeading>
      <PemField
        id="ssh-key"
        label="Key"
        hint="An OpenSSH private key, authorized_keys or .pub lines, or a PEM/DER/JWK key"
        placeholder="ssh-ed25519 AAAA… or -----BEGIN OPENSSH PRIVATE KEY-----"
        value={input}
        onChange={setInput}
        error={errors.key}
      />
      <TextField
        id="ssh-passphrase"
        label="Passphrase (if the key is encrypted)"
        type="password"
        autoComplete="off"
        value={passphrase}
        onChange={setPassphrase}
        error={errors.passphrase}
      />
      <FormGrid>
        <SelectField
          id="ssh-target"
          label="Write as"
          value={target}
          onChange={(v) => setTarget(v as SshTarget)}
          options={TARGETS}
          error={errors.target}
        />
        <TextField
          id="ssh-comment"
          label="Comment (optional)"
          value={comment}
          onChange={setComment}
          placeholder="The key's own, if it has one"
        />
      </FormGrid>
      <FormGrid>
        <TextField
          id="ssh-new-passphrase"
          label="New passphrase (optional)"
          type="password"
          autoComplete="new-password"
          value={newPassphrase}
          onChange={setNewPassphrase}
          off={encrypts ? undefined : "Private key outputs only"}
          error={errors.newPassphrase}
        />
        <TextField
          id="ssh-rounds"
          label="bcrypt rounds (ssh-keygen -a)"
          inputMode="numeric"
          value={rounds}
          onChange={setRounds}
          off={target === "openssh" && newPassphrase ? undefined : "With a new passphrase, OpenSSH format"}
          error={errors.rounds}
        />
      </FormGrid>
      <RunRow {...form.runRow} label={target === "none" ? "Read key" : "Convert"} pendingLabel="Working…" />
      <div id="ssh-result" role="status" aria-label="SSH key" className="grid gap-3">
        {result ? (
          <>
            <ul className="grid gap-2 text-sm">
              {result.keys.map((k) => (
                <li key={k.publicLine} className="grid gap-1 rounded-md border border-border px-3 py-2">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="break-all font-mono text-xs">{k.keygen}</span>
                    <CopyButton text={k.sha256} what="SHA256 fingerprint" />
                  </div>
                  <span className="break-all font-mono text-xs text-muted-foreground">{k.md5}</span>
                  {k.options ? (
                    <span className="text-xs text-muted-foreground">Options: {k.options}</span>
                  ) : null}
                </li>
              ))}
            </ul>
            {result.protection ? (
              <p className="text-sm text-muted-foreground">Stored: {result.protection}.</p>
            ) : null}
            {result.output ? (
              <ResultBox
                id="ssh-output"
                label={result.output.label}
                value={result.output.text}
                placeholder=""
                size="lg"
                download={{ filename: result.output.filename, type: "text/plain" }}
              />
            ) : null}
          </>
        ) : (
          <p className="rounded-md border border-dashed border-border px-3 py-2 text-sm text-muted-foreground">
            Paste a key and press Read key; its fingerprints appear here.
          </p>
        )}
      </div>
    </form>
  );
}
