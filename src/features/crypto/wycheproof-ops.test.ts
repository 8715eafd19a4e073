// Wycheproof subsets run through the operations the workbench's forms call (ops.ts, in the worker):
// AES-GCM in the Symmetric encryption tool (key + 12-byte IV, tag appended) and the HKDF tool. Every
// "invalid" case must fail. Fixtures and their sources: src/core/crypto/fixtures/FIXTURES.md.
import { describe, expect, it } from "vitest";
import gcmKat from "@/core/crypto/fixtures/wycheproof-aes-gcm.json";
import hkdfKat from "@/core/crypto/fixtures/wycheproof-hkdf.json";
import { FieldError } from "./op-base";
import { ops } from "./ops";
import type { SymmetricArgs } from "./tools/encrypt/op";

const hex = (text: string) => ({ kind: "hex", text }) as const;

function gcmArgs(
  g: { keySize: number },
  t: { key: string; iv: string; aad: string },
  direction: "encrypt" | "decrypt",
  data: string,
): SymmetricArgs {
  return {
    direction,
    cipher: `AES-${g.keySize}-GCM` as SymmetricArgs["cipher"],
    keyMode: "raw",
    password: "",
    kdf: "pbkdf2",
    iterations: 1,
    hash: "SHA-256",
    key: t.key,
    iv: t.iv,
    aad: t.aad ? hex(t.aad) : null,
    data: hex(data),
    output: "hex",
  };
}

async function failure(p: Promise<unknown>): Promise<FieldError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FieldError);
  return e as FieldError;
}

describe("Wycheproof AES-GCM through the Symmetric encryption tool", () => {
  for (const g of gcmKat.groups) {
    describe(`AES-${g.keySize}-GCM, ${g.ivSize}-bit IV`, () => {
      for (const t of g.tests) {
        it(`tcId ${t.tcId} ${t.result}${t.comment ? `: ${t.comment}` : ""}`, async () => {
          const sealed = t.ct + t.tag;
          if (t.result === "valid") {
            const enc = await ops.symmetric(gcmArgs(g, t, "encrypt", t.msg));
            expect(enc.value).toBe(sealed);
            const dec = await ops.symmetric(gcmArgs(g, t, "decrypt", sealed));
            expect(dec.value).toBe(t.msg);
          } else {
            const e = await failure(ops.symmetric(gcmArgs(g, t, "decrypt", sealed)));
            // A bad tag is a failed decryption; an IV that is not 12 bytes is refused before any work.
            expect(e.code).toBe(g.ivSize === 96 ? "DECRYPTION_FAILED" : "INVALID_PARAMETER");
            expect(e.field).toBe("key");
          }
        });
      }
    });
  }

  it("the subset has invalid-tag cases for every key size", () => {
    for (const size of [128, 192, 256]) {
      const invalid = gcmKat.groups
        .filter((g) => g.keySize === size && g.ivSize === 96)
        .flatMap((g) => g.tests.filter((t) => t.result === "invalid"));
      expect(invalid.length, `AES-${size}`).toBeGreaterThan(0);
    }
  });
});

describe("Wycheproof HKDF through the HKDF tool", () => {
  for (const f of hkdfKat.files) {
    describe(f.algorithm, () => {
      for (const t of f.tests) {
        it(`tcId ${t.tcId} ${t.result}${t.comment ? `: ${t.comment}` : ""} (${t.size} bytes)`, async () => {
          const run = ops.hkdf({
            hash: f.hash as Parameters<typeof ops.hkdf>[0]["hash"],
            mode: "extract-and-expand",
            key: hex(t.ikm),
            salt: hex(t.salt),
            info: hex(t.info),
            length: t.size,
            output: "hex",
          });
          if (t.result === "valid") {
            const out = await run;
            expect(out.value).toBe(t.okm);
            expect(out.length).toBe(t.size);
          } else {
            const e = await failure(run);
            expect(e).toMatchObject({ code: "INVALID_PARAMETER", field: "length" });
          }
        });
      }
    });
  }
});
