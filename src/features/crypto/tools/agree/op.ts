/**
 * The key-agreement tool's operation (ECDH, X25519/X448, finite-field DH).
 */
import * as c from "@/core/crypto";
import { at, encode, type OutputEncoding, privateKeyFields } from "../../op-base";

async function derive(a: {
  privateKey: string;
  passphrase: string;
  peerPublicKey: string;
  pad: boolean;
  output: OutputEncoding;
}): Promise<{ value: string; length: number; kind: string }> {
  const key = await at(privateKeyFields("privateKey"), () =>
    c.loadPrivateKey(a.privateKey, a.passphrase ? { passphrase: a.passphrase } : {}),
  );
  const peer = await at("peerPublicKey", () => c.loadPublicKey(a.peerPublicKey));
  const secret = await at({ default: "peerPublicKey" }, () =>
    c.deriveSharedSecret(key, peer, a.pad ? {} : { pad: false }),
  );
  return { value: encode(secret, a.output), length: secret.length, kind: key.kind };
}

export const ops = { derive };
