/**
 * The PKCS#12 tool's operations: open a .p12/.pfx with its password to show its certificates and key
 * (PEM), and make one from a private key and a chain, as `openssl pkcs12` does.
 */
import * as c from "@/core/crypto";
import { createPkcs12, PKCS12_MAX_BYTES, readPkcs12 } from "@/core/crypto/pkcs12";
import { at, bytesOf, type DataSpec, FieldError, privateKeyFields } from "../../op-base";

export interface Pkcs12Opened {
  certificates: { pem: string; subject: string; issuer: string; notAfter: string; friendlyName?: string }[];
  keys: { pem: string; type: string; bits: number; friendlyName?: string; protection: string }[];
  mac: string;
  legacy: boolean;
}

async function pkcs12Open(a: { file: DataSpec; password: string }): Promise<Pkcs12Opened> {
  if (a.file.kind === "file" && a.file.file.size > PKCS12_MAX_BYTES) {
    throw new FieldError("INPUT_TOO_LARGE", "PKCS#12 files up to 4 MiB are read here", "file");
  }
  const bytes = await bytesOf("file", a.file);
  const r = await at({ WRONG_PASSPHRASE: "password", default: "file" }, () => readPkcs12(bytes, a.password));
  const certificates: Pkcs12Opened["certificates"] = [];
  const keys: Pkcs12Opened["keys"] = [];
  for (const bag of r.bags) {
    const name = bag.friendlyName ? { friendlyName: bag.friendlyName } : {};
    if (bag.kind === "certificate") {
      const info = await at("file", () => c.parseCertificate(bag.der));
      certificates.push({
        pem: c.toPem("CERTIFICATE", bag.der),
        subject: info.subject,
        issuer: info.issuer,
        notAfter: info.notAfter,
        ...name,
      });
    } else {
      const key = await at("file", () => c.loadPrivateKey(bag.der));
      const summary = c.summarizeKey(key);
      keys.push({
        pem: c.toPem("PRIVATE KEY", bag.der),
        type: summary.type,
        bits: summary.bits,
        protection: bag.protection,
        ...name,
      });
    }
  }
  return {
    certificates,
    keys,
    mac: r.mac ? `HMAC-${r.mac.algorithm}, ${r.mac.iterations} iterations` : "none",
    legacy: r.legacy,
  };
}

async function pkcs12Create(a: {
  privateKey: string;
  passphrase: string;
  chain: string;
  password: string;
  friendlyName: string;
}): Promise<{ bytes: Uint8Array; certificates: number }> {
  const key = await at(privateKeyFields("privateKey"), () =>
    c.loadPrivateKey(a.privateKey, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const chain = await at("chain", () => c.certificatesFromPem(a.chain));
  if (chain.length === 0)
    throw new FieldError("INVALID_PARAMETER", "Paste the certificate, leaf first", "chain");
  if (!a.password) throw new FieldError("INVALID_PARAMETER", "Enter a password for the file", "password");
  const bytes = await at("password", () =>
    createPkcs12(c.privateKeyDer(key, "pkcs8"), chain, a.password, {
      ...(a.friendlyName.trim() ? { friendlyName: a.friendlyName.trim() } : {}),
    }),
  );
  return { bytes, certificates: chain.length };
}

export const ops = { pkcs12Open, pkcs12Create };
