"use client";

import { type FormEvent, useState } from "react";
import { cn } from "@/lib/utils";
import { SelectField, TextField } from "../../ui/fields";
import { useToolForm } from "../../ui/job";
import { FormGrid, ToolHeading } from "../../ui/layout";
import { CopyButton } from "../../ui/result";
import { RunRow } from "../../ui/run-row";
import type { OtpArgs, OtpResult } from "./op";

const ALGORITHMS = [
  { value: "SHA1", label: "SHA-1" },
  { value: "SHA256", label: "SHA-256" },
  { value: "SHA512", label: "SHA-512" },
];

/** The `oathtool` command that prints the same codes (secret shown as a placeholder). */
function oathtoolCommand(r: OtpResult, at: string, counter: number | undefined): string {
  const digits = r.digits === 6 ? "" : ` -d ${r.digits}`;
  if (r.type === "hotp") {
    return `oathtool --hotp${r.algorithm === "SHA1" ? "" : " # HOTP in oathtool is SHA-1 only"}${digits} -c ${counter ?? 0} -b "$SECRET"`;
  }
  const period = r.period === 30 ? "" : ` -s ${r.period}s`;
  const now = at ? ` -N @${Math.floor(Date.parse(at) / 1000)}` : "";
  return `oathtool --totp=${r.algorithm}${digits}${period}${now} -b "$SECRET"`;
}

/** TOTP (RFC 6238) and HOTP (RFC 4226) codes, as `oathtool` and authenticator apps make them. */
export default function OtpTool() {
  const [source, setSource] = useState<"secret" | "uri">("secret");
  const [uri, setUri] = useState("");
  const [secret, setSecret] = useState("");
  const [secretEncoding, setSecretEncoding] = useState<OtpArgs["secretEncoding"]>("base32");
  const [type, setType] = useState<OtpArgs["type"]>("totp");
  const [algorithm, setAlgorithm] = useState<OtpArgs["algorithm"]>("SHA1");
  const [digits, setDigits] = useState("6");
  const [period, setPeriod] = useState("30");
  const [when, setWhen] = useState("");
  const [counter, setCounter] = useState("0");
  const [spread, setSpread] = useState("1");
  const [check, setCheck] = useState("");
  const form = useToolForm<OtpResult & { at: string; counter?: number }>();
  const { errors, result } = form;
  const fromUri = source === "uri";

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // A datetime-local value is the device's local time; the worker gets the instant.
    const at = when ? new Date(when) : null;
    if (at && Number.isNaN(at.getTime())) {
      return form.setErrors({ at: "Enter a date and time, or leave it empty for now" });
    }
    const args: OtpArgs = {
      uri: fromUri ? uri : "",
      secret: fromUri ? "" : secret,
      secretEncoding,
      type,
      algorithm,
      digits: Number(digits),
      period: Number(period),
      at: at?.toISOString() ?? "",
      counter: fromUri ? "" : counter,
      window: Number(spread),
      check,
    };
    await form.submit(
      async (run) => {
        const r = await run("otp", args);
        const current = r.codes.find((c) => c.offset === 0);
        return { ...r, at: args.at, ...(r.type === "hotp" && current ? { counter: current.step } : {}) };
      },
      (r) =>
        r.check
          ? r.check.offset === undefined
            ? null
            : `The code matches ${r.check.offset === 0 ? "the current code" : `offset ${r.check.offset}`}`
          : "Codes computed",
    );
  }

  const current = result?.codes.find((c) => c.offset === 0);
  return (
    <form onSubmit={onSubmit} aria-labelledby="tool-otp" noValidate className="grid gap-3">
      <ToolHeading id="tool-otp" title="One-time passwords">
        TOTP (RFC 6238) and HOTP (RFC 4226) codes from a secret or an{" "}
        <code className="font-mono text-[0.9em]">otpauth://</code> URI, the same as{" "}
        <code className="font-mono text-[0.9em]">oathtool</code> and authenticator apps give, and whether a
        code is among them.
      </ToolHeading>
      <SelectField
        id="otp-source"
        label="From"
        value={source}
        onChange={(v) => setSource(v as typeof source)}
        options={[
          { value: "secret", label: "A secret and parameters" },
          { value: "uri", label: "An otpauth:// URI (from a QR code)" },
        ]}
      />
      {fromUri ? (
        <TextField
          id="otp-uri"
          label="otpauth URI"
          value={uri}
          onChange={setUri}
          autoComplete="off"
          spellCheck={false}
          placeholder="otpauth://totp/Issuer:name?secret=…&issuer=Issuer"
          hint="It gives the secret, the type, the hash, the digits and the period"
          error={errors.uri}
        />
      ) : (
        <>
          <FormGrid className="sm:grid-cols-[minmax(0,1fr)_12rem]">
            <TextField
              id="otp-secret"
              label="Secret"
              type="password"
              value={secret}
              onChange={setSecret}
              autoComplete="off"
              spellCheck={false}
              error={errors.secret}
            />
            <SelectField
              id="otp-secret-encoding"
              label="Secret as"
              value={secretEncoding}
              onChange={(v) => setSecretEncoding(v as typeof secretEncoding)}
              options={[
                { value: "base32", label: "Base32 (apps)" },
                { value: "hex", label: "Hex" },
                { value: "utf8", label: "Text (UTF-8)" },
              ]}
            />
          </FormGrid>
          <FormGrid className="sm:grid-cols-2 lg:grid-cols-4">
            <SelectField
              id="otp-type"
              label="Type"
              value={type}
              onChange={(v) => setType(v as typeof type)}
              options={[
                { value: "totp", label: "TOTP (time)" },
                { value: "hotp", label: "HOTP (counter)" },
              ]}
            />
            <SelectField
              id="otp-algorithm"
              label="Hash"
              value={algorithm}
              onChange={(v) => setAlgorithm(v as typeof algorithm)}
              options={ALGORITHMS}
            />
            <TextField
              id="otp-digits"
              label="Digits"
              inputMode="numeric"
              value={digits}
              onChange={setDigits}
              error={errors.digits}
            />
            <TextField
              id="otp-period"
              label="Period (seconds)"
              inputMode="numeric"
              value={period}
              onChange={setPeriod}
              off={type === "totp" ? undefined : "TOTP only"}
              error={errors.period}
            />
          </FormGrid>
        </>
      )}
      {/* The date-time field needs more room than a third: its native control has a wide minimum. */}
      <FormGrid className="sm:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <TextField
          id="otp-at"
          label="At (your local time)"
          type="datetime-local"
          step={1}
          value={when}
          onChange={setWhen}
          hint="Empty: now, by this device's clock (oathtool -N)"
          off={!fromUri && type === "hotp" ? "TOTP only" : undefined}
          error={errors.at}
        />
        <TextField
          id="otp-counter"
          label="Counter"
          inputMode="numeric"
          value={counter}
          onChange={setCounter}
          off={fromUri ? "The URI's counter" : type === "totp" ? "HOTP only" : undefined}
          error={errors.counter}
        />
        <TextField
          id="otp-window"
          label="Codes either side"
          inputMode="numeric"
          value={spread}
          onChange={setSpread}
          hint="0 to 10 (oathtool -w)"
          error={errors.window}
        />
      </FormGrid>
      <TextField
        id="otp-check"
        label="Check a code (optional)"
        inputMode="numeric"
        autoComplete="off"
        value={check}
        onChange={setCheck}
        error={errors.check}
      />
      <RunRow {...form.runRow} label="Compute codes" pendingLabel="Computing…" />
      <div
        id="otp-result"
        role="status"
        aria-label="One-time passwords"
        className={cn(
          "grid min-h-28 gap-3 rounded-md border px-3 py-2 text-sm",
          !result && "border-dashed border-border text-muted-foreground",
        )}
      >
        {result && current ? (
          <>
            {result.check ? (
              <p className={result.check.offset === undefined ? "text-destructive" : "text-success"}>
                {result.check.offset === undefined
                  ? `✗ ${result.check.code} is not among the codes shown`
                  : `✓ ${result.check.code} is ${result.check.offset === 0 ? "the current code" : `the code at offset ${result.check.offset}`}`}
              </p>
            ) : null}
            <div className="flex flex-wrap items-center gap-3">
              <output className="font-mono text-3xl tracking-widest tabular-nums" aria-label="Current code">
                {current.code}
              </output>
              <CopyButton text={current.code} what="Code" />
              <span className="text-muted-foreground">
                {result.type === "totp"
                  ? `${result.algorithm}, ${result.digits} digits, ${result.period} s steps; step ${current.step}, ${result.remaining} s left`
                  : `${result.algorithm}, ${result.digits} digits, counter ${current.step}`}
              </span>
            </div>
            <table className="w-full max-w-md text-left tabular-nums">
              <caption className="sr-only">Codes around the current one</caption>
              <thead className="text-xs text-muted-foreground">
                <tr>
                  <th className="py-1 font-medium">Offset</th>
                  <th className="py-1 font-medium">{result.type === "totp" ? "From" : "Counter"}</th>
                  <th className="py-1 font-medium">Code</th>
                </tr>
              </thead>
              <tbody>
                {result.codes.map((c) => (
                  <tr key={c.step} className={cn(c.offset === 0 && "font-semibold")}>
                    <td className="py-0.5">{c.offset > 0 ? `+${c.offset}` : c.offset}</td>
                    <td className="py-0.5">{c.from ? new Date(c.from).toLocaleString() : c.step}</td>
                    <td className="py-0.5 font-mono">{c.code}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="break-all font-mono text-xs text-muted-foreground">
              {oathtoolCommand(result, result.at, result.counter)}
            </p>
          </>
        ) : (
          "Enter a secret or a URI and press Compute codes; the codes appear here."
        )}
      </div>
    </form>
  );
}
