/**
 * The PEM/ASN.1 inspector's operation: the decoded blocks, without key material the UI has no use for.
 */
import * as c from "@/core/crypto";
import { at, privateKeyFields } from "../../op-base";

type WithoutKey<T extends { publicKey: { key: unknown } }> = Omit<T, "publicKey"> & {
  publicKey: Omit<T["publicKey"], "key">;
};

/** An inspection without the decoded key material (bigints the UI has no use for). */
export type InspectedBlock = Omit<c.Inspection, "certificate" | "csr"> & {
  certificate?: WithoutKey<c.CertificateInfo> & {
    /** At the moment of inspection, by this device's clock. */
    status: "valid" | "expired" | "not yet valid" | "unknown";
  };
  csr?: WithoutKey<c.CsrInfo>;
};

function withoutKey<T extends { publicKey: { key: unknown } }>(x: T): WithoutKey<T> {
  const { key: _key, ...publicKey } = x.publicKey;
  return { ...x, publicKey } as unknown as WithoutKey<T>;
}

async function inspect(a: { input: string; passphrase: string }): Promise<InspectedBlock[]> {
  const blocks = await at(privateKeyFields("input"), () =>
    c.inspect(a.input, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const now = new Date();
  return blocks.map(({ certificate, csr, ...b }) => ({
    ...b,
    ...(certificate
      ? { certificate: { ...withoutKey(certificate), status: c.validityStatus(certificate, now) } }
      : {}),
    ...(csr ? { csr: withoutKey(csr) } : {}),
  }));
}

export const ops = { inspect };
