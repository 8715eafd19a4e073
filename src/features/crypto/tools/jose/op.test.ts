import { spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { FieldError } from "../../op-base";
import { ops } from "./op";

// JOSE against Debian's python3-jwcrypto (run by /usr/bin/python3), both ways: what jwcrypto signs or
// encrypts the tool verifies or decrypts, and what the tool signs or encrypts jwcrypto verifies or
// decrypts. Keys are PEM made by Node (or JWKs for the symmetric ones), read by each side as it reads keys.

const JWCRYPTO = `
import json, sys
from jwcrypto import jwk, jws, jwe
from jwcrypto.common import json_encode
r = json.load(sys.stdin)
k = r["key"]
key = jwk.JWK(**k) if isinstance(k, dict) else jwk.JWK.from_pem(k.encode())
if r["op"] == "sign":
    s = jws.JWS(r["payload"].encode())
    s.add_signature(key, None, json_encode({"alg": r["alg"]}), None)
    print(s.serialize(compact=True))
elif r["op"] == "verify":
    s = jws.JWS()
    s.deserialize(r["token"])
    s.verify(key, alg=r["alg"])
    print(s.payload.decode())
elif r["op"] == "encrypt":
    e = jwe.JWE(r["payload"].encode(), json_encode({"alg": r["alg"], "enc": r["enc"]}))
    e.allowed_algs = [r["alg"], r["enc"]]
    e.add_recipient(key)
    print(e.serialize(compact=True))
elif r["op"] == "decrypt":
    e = jwe.JWE()
    e.allowed_algs = [r["alg"], r["enc"]]
    e.deserialize(r["token"], key=key)
    print(e.payload.decode())
`;

function jwcrypto(req: Record<string, unknown>): string {
  const r = spawnSync("/usr/bin/python3", ["-c", JWCRYPTO], { input: JSON.stringify(req), encoding: "utf8" });
  if (r.status !== 0) throw new Error(`jwcrypto: ${r.stderr}`);
  return r.stdout.trim();
}

type Pair = { privatePem: string; publicPem: string };
function pair(type: "rsa" | "ec" | "ed25519", curve?: string): Pair {
  const { privateKey, publicKey } =
    type === "rsa"
      ? generateKeyPairSync("rsa", { modulusLength: 2048 })
      : type === "ec"
        ? generateKeyPairSync("ec", { namedCurve: curve ?? "P-256" })
        : generateKeyPairSync("ed25519");
  return {
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

const b64url = (b: Buffer) => b.toString("base64url");
const octJwk = (bytes: Buffer) => ({ kty: "oct", k: b64url(bytes) });

const rsa = pair("rsa");
const p256 = pair("ec", "P-256");
const p384 = pair("ec", "P-384");
const p521 = pair("ec", "P-521");
const ed = pair("ed25519");

const SIGNERS: { alg: string; key: Pair | Buffer }[] = [
  { alg: "RS256", key: rsa },
  { alg: "RS512", key: rsa },
  { alg: "PS256", key: rsa },
  { alg: "PS384", key: rsa },
  { alg: "ES256", key: p256 },
  { alg: "ES384", key: p384 },
  { alg: "ES512", key: p521 },
  { alg: "EdDSA", key: ed },
  { alg: "HS256", key: randomBytes(32) },
  { alg: "HS512", key: randomBytes(64) },
];

const none = { passphrase: "" };

describe("JOSE, against python3-jwcrypto", () => {
  it.each(SIGNERS)(
    "JWS $alg: jwcrypto's token verifies here, and this tool's verifies in jwcrypto",
    async ({ alg, key }) => {
      const claims = JSON.stringify({ sub: "alice", iat: 1_700_000_000, exp: 4_000_000_000, alg });
      const secret = Buffer.isBuffer(key);
      const theirKey = secret ? octJwk(key) : key.privatePem;
      const theirToken = jwcrypto({ op: "sign", key: theirKey, alg, payload: claims });
      // Ours verifies theirs: with the PEM (or the JWK of the secret), and with a JWK Set holding it.
      const verifyKey = secret ? JSON.stringify(octJwk(key)) : key.publicPem;
      const v = await ops.joseVerify({ token: theirToken, alg, key: verifyKey, ...none });
      expect(v).toMatchObject({ valid: true, kind: "JWS" });
      expect(JSON.parse(v.payload ?? "")).toEqual(JSON.parse(claims));
      expect(v.times?.map((t) => t.claim)).toEqual(["iat", "exp"]);
      // Pinned to another algorithm, the same token is refused.
      const other = alg === "HS256" ? "HS512" : "HS256";
      expect(await ops.joseVerify({ token: theirToken, alg: other, key: verifyKey, ...none })).toMatchObject({
        valid: false,
      });

      // Theirs verifies ours.
      const ours = await ops.joseSign({
        payload: claims,
        alg,
        kid: "",
        typ: "JWT",
        key: secret ? JSON.stringify(octJwk(key)) : key.privatePem,
        ...none,
      });
      expect(
        jwcrypto({ op: "verify", key: secret ? octJwk(key) : key.publicPem, alg, token: ours.token }),
      ).toBe(claims);
      // A tampered payload does not verify.
      const [h, , s] = ours.token.split(".");
      const forged = `${h}.${b64url(Buffer.from(claims.replace("alice", "mallory")))}.${s}`;
      expect((await ops.joseVerify({ token: forged, alg, key: verifyKey, ...none })).valid).toBe(false);
    },
  );

  it("verifies against a pasted JWK Set by kid, and says when no key fits", async () => {
    const a = pair("ec", "P-256");
    const b = pair("ec", "P-256");
    const exported = (pem: string) =>
      JSON.parse(
        spawnSync(
          "/usr/bin/python3",
          [
            "-c",
            "import sys; from jwcrypto import jwk; print(jwk.JWK.from_pem(sys.stdin.read().encode()).export_public())",
          ],
          { input: pem, encoding: "utf8" },
        ).stdout,
      );
    const jwks = JSON.stringify({
      keys: [
        { ...exported(a.publicPem), kid: "a" },
        { ...exported(b.publicPem), kid: "b" },
      ],
    });
    const token = (
      await ops.joseSign({ payload: "{}", alg: "ES256", kid: "b", typ: "", key: b.privatePem, ...none })
    ).token;
    expect(await ops.joseVerify({ token, alg: "ES256", key: jwks, ...none })).toMatchObject({
      valid: true,
      kid: "b",
    });
    const stranger = (
      await ops.joseSign({
        payload: "{}",
        alg: "ES256",
        kid: "c",
        typ: "",
        key: pair("ec").privatePem,
        ...none,
      })
    ).token;
    expect(await ops.joseVerify({ token: stranger, alg: "ES256", key: jwks, ...none })).toMatchObject({
      valid: false,
    });
  });

  const ENCRYPTERS: { alg: string; enc: string; key: Pair | Buffer }[] = [
    { alg: "RSA-OAEP-256", enc: "A256GCM", key: rsa },
    { alg: "RSA-OAEP", enc: "A128CBC-HS256", key: rsa },
    { alg: "ECDH-ES", enc: "A256GCM", key: p256 },
    { alg: "ECDH-ES+A256KW", enc: "A256CBC-HS512", key: p384 },
    { alg: "ECDH-ES+A128KW", enc: "A128GCM", key: p256 },
    { alg: "A256KW", enc: "A256GCM", key: randomBytes(32) },
    { alg: "A128KW", enc: "A128CBC-HS256", key: randomBytes(16) },
    { alg: "dir", enc: "A256GCM", key: randomBytes(32) },
  ];

  it.each(ENCRYPTERS)(
    "JWE $alg + $enc: jwcrypto's token decrypts here, and this tool's decrypts in jwcrypto",
    async ({ alg, enc, key }) => {
      const message = `zqx jose ${alg} ${enc} ✓`;
      const secret = Buffer.isBuffer(key);
      const theirToken = jwcrypto({
        op: "encrypt",
        alg,
        enc,
        payload: message,
        key: secret ? octJwk(key) : key.publicPem,
      });
      const ourKey = secret ? JSON.stringify(octJwk(key)) : key.privatePem;
      expect(await ops.joseDecrypt({ token: theirToken, alg, enc, key: ourKey, ...none })).toMatchObject({
        plaintext: message,
        binary: false,
      });
      const ours = await ops.joseEncrypt({
        plaintext: message,
        alg,
        enc,
        kid: "",
        key: secret ? JSON.stringify(octJwk(key)) : key.publicPem,
        ...none,
      });
      expect(
        jwcrypto({ op: "decrypt", alg, enc, token: ours.token, key: secret ? octJwk(key) : key.privatePem }),
      ).toBe(message);
      // Pinned to other algorithms, the tool refuses before decrypting.
      const otherEnc = enc === "A256GCM" ? "A128GCM" : "A256GCM";
      await expect(
        ops.joseDecrypt({ token: theirToken, alg, enc: otherEnc, key: ourKey, ...none }),
      ).rejects.toMatchObject({
        field: "alg",
      });
    },
  );

  it("decodes without a key, refuses none, and names the field of each bad input", async () => {
    const unsigned = `${b64url(Buffer.from('{"alg":"none"}'))}.${b64url(Buffer.from('{"sub":"x","exp":1}'))}.`;
    const d = await ops.joseDecode({ token: unsigned });
    expect(d).toMatchObject({ kind: "JWS", times: [{ claim: "exp", at: "1970-01-01T00:00:01.000Z" }] });
    await expect(ops.joseVerify({ token: unsigned, alg: "none", key: "x", ...none })).rejects.toMatchObject({
      field: "alg",
      code: "UNSUPPORTED_ALGORITHM",
    });
    // A token whose header says none is not valid under any pinned algorithm.
    expect(await ops.joseVerify({ token: unsigned, alg: "HS256", key: "secret", ...none })).toMatchObject({
      valid: false,
    });
    await expect(ops.joseDecode({ token: "not a token" })).rejects.toBeInstanceOf(FieldError);
    await expect(ops.joseDecode({ token: "a.b" })).rejects.toMatchObject({ field: "token" });
    await expect(
      ops.joseSign({ payload: "{}", alg: "RS256", kid: "", typ: "", key: '{"nope":1}', ...none }),
    ).rejects.toMatchObject({ field: "key" });
    await expect(
      ops.joseSign({ payload: "{}", alg: "ES256", kid: "", typ: "", key: rsa.privatePem, ...none }),
    ).rejects.toMatchObject({ field: "key" });
    await expect(
      ops.joseSign({
        payload: "{}",
        alg: "HS256",
        kid: "",
        typ: "",
        key: "x".repeat(1024 * 1024 + 1),
        ...none,
      }),
    ).rejects.toMatchObject({ field: "key", code: "INPUT_TOO_LARGE" });
  });
});
