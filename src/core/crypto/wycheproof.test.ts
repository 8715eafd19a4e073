import { afterEach, describe, expect, it } from "vitest";
import { ecPublicFromPrivate, x25519 } from "./curves";
import { ecdh, ecdsaVerify, ed25519Verify, x25519Derive } from "./ec";
import { bytesToHex, hexToBytes } from "./encoding";
import ecdhKat from "./fixtures/wycheproof-ecdh-p256.json";
import ecdsaKat from "./fixtures/wycheproof-ecdsa-p256.json";
import edKat from "./fixtures/wycheproof-ed25519.json";
import xKat from "./fixtures/wycheproof-x25519.json";
import { decodeSpki, type PrivateKeyData, type PublicKeyData } from "./keys";
import { setForceNoble } from "./webcrypto";

afterEach(() => setForceNoble(false));

for (const impl of ["WebCrypto", "noble"] as const) {
  describe(`Wycheproof subsets (${impl} path where both exist)`, () => {
    const selectImpl = () => setForceNoble(impl === "noble");

    it("Ed25519 (RFC 8032 strict verification)", async () => {
      selectImpl();
      const pk = hexToBytes(edKat.publicKey);
      expect(decodeSpki(hexToBytes(edKat.publicKeyDer))).toEqual({ kind: "ed25519", publicKey: pk });
      for (const t of edKat.tests) {
        const ok = await ed25519Verify(pk, hexToBytes(t.msg), hexToBytes(t.sig));
        expect({ tcId: t.tcId, ok }).toEqual({ tcId: t.tcId, ok: t.result === "valid" });
      }
    });

    it("X25519 (valid and twist points)", async () => {
      selectImpl();
      for (const t of xKat.tests) {
        const secret = hexToBytes(t.private);
        const k = { kind: "x25519", secret, publicKey: x25519.getPublicKey(secret) } as const;
        let out: string | undefined;
        try {
          out = bytesToHex(await x25519Derive(k, hexToBytes(t.public)));
        } catch {
          out = undefined;
        }
        if (t.result === "valid") expect(out, `tcId ${t.tcId}`).toBe(t.shared);
        else if (out !== undefined) expect(out, `tcId ${t.tcId}`).toBe(t.shared);
      }
    });
  });
}

describe("Wycheproof ECDSA P-256/SHA-256 (DER, strict)", () => {
  for (const g of ecdsaKat.groups) {
    for (const t of g.tests) {
      it(`tcId ${t.tcId} ${t.result}${"comment" in t ? `: ${t.comment}` : ""}`, async () => {
        const key = decodeSpki(hexToBytes(g.publicKeyDer)) as Extract<PublicKeyData, { kind: "ec" }>;
        const ok = await ecdsaVerify(key, hexToBytes(t.msg), hexToBytes(t.sig), {
          hash: "SHA-256",
          format: "der",
        });
        expect(ok).toBe(t.result === "valid");
      });
    }
  }
});

describe("Wycheproof ECDH P-256", () => {
  for (const t of ecdhKat.tests) {
    it(`tcId ${t.tcId} ${t.result}`, async () => {
      const d = hexToBytes(t.private);
      const priv: PrivateKeyData = { kind: "ec", curve: "P-256", d, point: ecPublicFromPrivate("P-256", d) };
      const peer = decodeSpki(hexToBytes(t.public)) as Extract<PublicKeyData, { kind: "ec" }>;
      const shared = await ecdh(priv as Extract<PrivateKeyData, { kind: "ec" }>, peer);
      expect(bytesToHex(shared)).toBe(t.shared);
    });
  }
});

describe("RFC vectors", () => {
  it("RFC 8032 7.1 test 1 (Ed25519)", async () => {
    const { ed25519Sign } = await import("./ec");
    const seed = hexToBytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    const pub = hexToBytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    const sig =
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";
    expect(bytesToHex(await ed25519Sign({ kind: "ed25519", seed, publicKey: pub }, new Uint8Array()))).toBe(
      sig,
    );
    expect(await ed25519Verify(pub, new Uint8Array(), hexToBytes(sig))).toBe(true);
  });

  it("RFC 7748 5.2 (X25519)", async () => {
    const secret = hexToBytes("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
    const u = hexToBytes("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c");
    const k = { kind: "x25519", secret, publicKey: x25519.getPublicKey(secret) } as const;
    expect(bytesToHex(await x25519Derive(k, u))).toBe(
      "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552",
    );
  });

  it("a small-order X25519 peer key is refused (all-zero secret)", async () => {
    const secret = hexToBytes("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
    const k = { kind: "x25519", secret, publicKey: x25519.getPublicKey(secret) } as const;
    await expect(x25519Derive(k, new Uint8Array(32))).rejects.toMatchObject({ code: "INVALID_PUBLIC_VALUE" });
  });
});
