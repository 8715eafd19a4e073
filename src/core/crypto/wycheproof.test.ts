import { afterEach, describe, expect, it } from "vitest";
import { ecPublicFromPrivate, x25519 } from "./curves";
import { ecdh, ecdsaVerify, ed25519Verify, x25519Derive } from "./ec";
import { bytesToHex, hexToBytes } from "./encoding";
import { CryptoInputError } from "./errors";
import dsaKat from "./fixtures/wycheproof-dsa-2048-256-sha256.json";
import ecdhKat from "./fixtures/wycheproof-ecdh-p256.json";
import ecdsaKat from "./fixtures/wycheproof-ecdsa-p256.json";
import edKat from "./fixtures/wycheproof-ed25519.json";
import oaepSha1Kat from "./fixtures/wycheproof-rsa-oaep-sha1.json";
import oaepSha256Kat from "./fixtures/wycheproof-rsa-oaep-sha256.json";
import pssKat from "./fixtures/wycheproof-rsa-pss-sha256.json";
import xKat from "./fixtures/wycheproof-x25519.json";
import { decrypt, loadPrivateKey, loadPublicKey, verify } from "./index";
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

/** "accepted" if `op` resolves to true (or to bytes), "rejected" if it resolves to false or throws. */
async function outcome(op: () => Promise<boolean>): Promise<"accepted" | "rejected"> {
  try {
    return (await op()) ? "accepted" : "rejected";
  } catch {
    return "rejected";
  }
}

// Wycheproof's OAEP files have no "acceptable" cases: every "valid" case must decrypt to `msg` (labels
// included: `EncryptionScheme` carries the OAEP label) and every "invalid" one must be refused.
for (const kat of [oaepSha1Kat, oaepSha256Kat]) {
  const hash = kat.sha === "SHA-1" ? "SHA-1" : "SHA-256";
  describe(`Wycheproof RSA-OAEP 2048 ${kat.sha}/MGF1-${kat.mgfSha}`, () => {
    const keyPromise = loadPrivateKey(hexToBytes(kat.privateKeyPkcs8));

    it("uses the OAEP hash for MGF1 too, as our API does", () => expect(kat.mgfSha).toBe(kat.sha));

    for (const t of kat.tests) {
      it(`tcId ${t.tcId} ${t.result}${t.comment ? `: ${t.comment}` : ""}`, async () => {
        const key = await keyPromise;
        const run = () =>
          decrypt(key, hexToBytes(t.ct), { padding: "OAEP", hash, label: hexToBytes(t.label) });
        if (t.result === "valid") {
          expect(bytesToHex(await run())).toBe(t.msg);
        } else {
          await expect(run()).rejects.toMatchObject({ code: "DECRYPTION_FAILED" });
        }
      });
    }

    it("padding errors are indistinguishable (one code, one message; Manger's attack)", async () => {
      const key = await keyPromise;
      const messages = new Set<string>();
      for (const t of kat.tests.filter((c) => c.flags.includes("InvalidOaepPadding"))) {
        const scheme = { padding: "OAEP", hash, label: hexToBytes(t.label) } as const;
        const err = await decrypt(key, hexToBytes(t.ct), scheme).catch((e: unknown) => e);
        expect(err, `tcId ${t.tcId}`).toBeInstanceOf(CryptoInputError);
        messages.add(`${(err as CryptoInputError).code}: ${(err as CryptoInputError).message}`);
      }
      expect([...messages]).toHaveLength(1);
    });
  });
}

describe(`Wycheproof RSA-PSS 2048 SHA-256/MGF1-SHA-256, sLen ${pssKat.sLen}`, () => {
  const keyPromise = loadPublicKey(hexToBytes(pssKat.publicKeyDer));
  const check = async (t: (typeof pssKat.tests)[number], saltLength: number | "auto") =>
    outcome(async () =>
      verify(await keyPromise, hexToBytes(t.msg), hexToBytes(t.sig), {
        alg: "RSA-PSS",
        hash: "SHA-256",
        saltLength,
      }),
    );

  it("uses SHA-256 for MGF1 too, as our API does", () => expect(pssKat.mgfSha).toBe(pssKat.sha));

  for (const t of pssKat.tests) {
    it(`tcId ${t.tcId} ${t.result}: ${t.comment}`, async () => {
      expect(await check(t, pssKat.sLen)).toBe(t.result === "valid" ? "accepted" : "rejected");
    });
  }

  // Our verification default is "auto", which (see README) tries the digest length (32), the maximum
  // (222) and 0, to accept what OpenSSL signs with its default and with `digest`/`max`. So with "auto",
  // the two signatures Wycheproof re-made with salt lengths 0 and 222 (tcId 67, 72: "invalid" for a
  // verifier pinned to sLen 32) verify. That is the documented trade-off of "auto", not a padding bug:
  // every other case keeps Wycheproof's verdict, and pinning the salt length (above) rejects those two.
  it('"auto" salt length: same verdicts except re-salted tcId 67 (sLen 0), 72 (sLen 222)', async () => {
    const autoAccepts = new Set([67, 72]);
    for (const t of pssKat.tests) {
      const expected = t.result === "valid" || autoAccepts.has(t.tcId) ? "accepted" : "rejected";
      expect({ tcId: t.tcId, got: await check(t, "auto") }).toEqual({ tcId: t.tcId, got: expected });
    }
  });
});

// DSA DER verification is strict, as for ECDSA (re-encode and compare; OpenSSL does the same). The one
// "acceptable" case, tcId 1 (flag MissingZero: r encoded without its leading 00, i.e. as a negative
// INTEGER), is therefore rejected; so does OpenSSL 3.
const DSA_ACCEPTABLE: Record<string, "accepted" | "rejected"> = { MissingZero: "rejected" };

describe("Wycheproof DSA 2048/256 SHA-256 (DER, strict)", () => {
  for (const g of dsaKat.groups) {
    const keyPromise = loadPublicKey(hexToBytes(g.publicKeyDer));
    for (const t of g.tests) {
      it(`tcId ${t.tcId} ${t.result}: ${t.comment} [${t.flags.join(", ")}]`, async () => {
        const key = await keyPromise;
        expect(key.kind).toBe("dsa");
        const got = await outcome(() =>
          verify(key, hexToBytes(t.msg), hexToBytes(t.sig), { alg: "DSA", hash: "SHA-256", format: "der" }),
        );
        if (t.result === "acceptable") {
          const policy = t.flags.map((f) => DSA_ACCEPTABLE[f]).find((p) => p !== undefined);
          expect(policy, `no documented choice for flags ${t.flags.join(", ")}`).toBeDefined();
          expect(got).toBe(policy);
        } else {
          expect(got).toBe(t.result === "valid" ? "accepted" : "rejected");
        }
      });
    }
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
