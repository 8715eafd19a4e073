/**
 * The key-generation tool's operation and the names of its choices.
 */
import * as c from "@/core/crypto";
import { at, FieldError } from "../../op-base";

/** Key generation choices, e.g. "RSA-2048", "EC-P-256", "Ed25519", "DSA-2048", "DH-ffdhe2048". */
export function keySpecOf(id: string): c.KeySpec {
  if (id.startsWith("RSA-")) {
    const bits = Number(id.slice(4));
    if (bits === 2048 || bits === 3072 || bits === 4096) return { type: "RSA", bits };
  } else if (id.startsWith("EC-")) {
    const curve = id.slice(3);
    if ((c.EC_CURVES as readonly string[]).includes(curve)) return { type: "EC", curve: curve as c.EcCurve };
  } else if (id === "Ed25519" || id === "X25519" || id === "Ed448" || id === "X448") {
    return { type: id };
  } else if (id === "DSA-2048") {
    return { type: "DSA", bits: 2048 };
  } else if (id.startsWith("DH-")) {
    const group = id.slice(3);
    if ((c.DH_GROUPS as readonly string[]).includes(group))
      return { type: "DH", group: group as c.DhGroupName };
  }
  throw new FieldError("UNSUPPORTED_ALGORITHM", `Unsupported algorithm: ${id}`, "algorithm");
}

export interface GeneratedKeys {
  privatePem: string;
  publicPem: string;
  privateJwk?: string;
  publicJwk?: string;
  summary: c.KeySummary;
  encrypted: boolean;
  millis: number;
}

async function generateKey(a: { algorithm: string; passphrase?: string }): Promise<GeneratedKeys> {
  const spec = keySpecOf(a.algorithm);
  const started = performance.now();
  const pair = await at("algorithm", () =>
    c.generateKeyPair(spec, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const out: GeneratedKeys = {
    privatePem: pair.privatePem,
    publicPem: pair.publicPem,
    summary: pair.summary,
    encrypted: Boolean(a.passphrase),
    millis: Math.round(performance.now() - started),
  };
  if (pair.jwk) {
    out.publicJwk = JSON.stringify(pair.jwk.publicKey, null, 2);
    // An encrypted PEM was asked for: a plain private JWK next to it would defeat the point.
    if (!a.passphrase) out.privateJwk = JSON.stringify(pair.jwk.privateKey, null, 2);
  }
  return out;
}

export const ops = { generateKey };
