/**
 * The key-conversion tool's operation (PEM, DER, JWK; PKCS#8, PKCS#1, SEC1, SPKI).
 */
import * as c from "@/core/crypto";
import { at, privateKeyFields } from "../../op-base";

export interface ConvertedKey {
  /** PEM or JWK text, or base64 of DER. */
  value: string;
  kind: "pem" | "der" | "jwk";
  label?: string;
  summary: c.KeySummary;
}

async function convertKey(a: {
  input: string;
  passphrase: string;
  target: c.KeyTarget;
  encoding: "pem" | "der";
  newPassphrase: string;
}): Promise<ConvertedKey> {
  const pass = a.passphrase ? { passphrase: a.passphrase } : {};
  const key = await at(privateKeyFields("privateKey"), () => c.loadAnyKey(a.input, pass));
  const r = await at(
    { ...privateKeyFields("privateKey"), INVALID_PARAMETER: "newPassphrase", WRONG_KEY_TYPE: "target" },
    () =>
      c.convertKey(a.input, a.target, {
        ...pass,
        encoding: a.encoding,
        ...(a.newPassphrase ? { newPassphrase: a.newPassphrase } : {}),
      }),
  );
  const summary = c.summarizeKey(key);
  if (r.kind === "der") return { value: c.bytesToBase64(r.bytes), kind: "der", summary };
  if (r.kind === "pem") return { value: r.text, kind: "pem", label: r.label, summary };
  return { value: r.text, kind: "jwk", summary };
}

export const ops = { convertKey };
