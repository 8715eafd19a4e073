/**
 * The certificate tool's operations: create a CSR or a self-signed certificate, and check a chain.
 */
import * as c from "@/core/crypto";
import { at, FieldError, privateKeyFields } from "../../op-base";

async function createCertificate(a: {
  privateKey: string;
  passphrase: string;
  make: "csr" | "self-signed";
  subject: string;
  subjectAltNames: string;
  days: number;
}): Promise<{ pem: string; der: string; summary: string }> {
  const key = await at(privateKeyFields("privateKey"), () =>
    c.loadPrivateKey(a.privateKey, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const fieldFor = (e: c.CryptoInputError) =>
    /^Subject/.test(e.message) || /subject/.test(e.message)
      ? "subject"
      : /^Alternative name/.test(e.message)
        ? "subjectAltNames"
        : /^Days/.test(e.message)
          ? "days"
          : "privateKey";
  try {
    const spec = { subject: a.subject, subjectAltNames: a.subjectAltNames };
    const r =
      a.make === "csr"
        ? await c.createCsr(key, spec)
        : await c.createSelfSignedCertificate(key, { ...spec, days: a.days });
    const summary =
      a.make === "csr"
        ? "PKCS#10 request; check it with: openssl req -in request.csr -verify -noout -text"
        : `Self-signed, valid ${a.days} days from now; check it with: openssl x509 -in certificate.pem -noout -text`;
    return { pem: r.pem, der: c.bytesToBase64(r.der), summary };
  } catch (e) {
    if (e instanceof c.CryptoInputError) throw new FieldError(e.code, e.message, fieldFor(e));
    throw e;
  }
}

const CHAIN_PURPOSES: readonly c.ChainPurpose[] = ["any", "sslserver", "sslclient"];

async function verifyChain(a: {
  chain: string;
  trusted: string;
  /** The time to check at (ISO 8601); empty for now. */
  at?: string;
  purpose?: c.ChainPurpose;
}): Promise<c.ChainResult> {
  const blocks = (text: string, field: string) => at(field, () => c.certificatesFromPem(text));
  const chain = await blocks(a.chain, "chain");
  if (chain.length === 0)
    throw new FieldError("INVALID_PARAMETER", "Paste at least one certificate", "chain");
  const trusted = a.trusted.trim() ? await blocks(a.trusted, "trusted") : [];
  const when = a.at?.trim() ? new Date(a.at) : new Date();
  if (Number.isNaN(when.getTime()))
    throw new FieldError("INVALID_PARAMETER", "Enter a date and time, or leave it empty for now", "at");
  const purpose = a.purpose ?? "any";
  if (!CHAIN_PURPOSES.includes(purpose))
    throw new FieldError("INVALID_PARAMETER", `Unknown purpose "${purpose}"`, "purpose");
  return at("chain", () => c.verifyChain(chain, when, trusted, { purpose }));
}

export const ops = { createCertificate, verifyChain };
