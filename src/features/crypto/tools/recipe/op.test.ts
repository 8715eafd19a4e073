import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recipe } from "./op";
import {
  RECIPE_CIPHERS,
  RECIPE_HASHES,
  recipeFragment,
  recipeFromFragment,
  recipeShell,
  type Step,
} from "./steps";

// Property: a random recipe of hash, HMAC, encoding, encryption/decryption and KDF steps gives the same
// bytes here as its "copy as shell" pipeline run by bash with Debian's openssl and coreutils.

const hex = (n: number) =>
  fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString("hex"));
const password = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/[\0\n]/.test(s));

/** One step, with a decrypt step always right after its encrypt (the only way decryption can succeed). */
const step: fc.Arbitrary<Step[]> = fc.oneof(
  fc.constantFrom(...RECIPE_HASHES).map((alg) => [{ op: "hash", alg }] as Step[]),
  fc
    .tuple(fc.constantFrom(...RECIPE_HASHES), hex(16))
    .map(([alg, key]) => [{ op: "hmac", alg, key }] as Step[]),
  fc.constantFrom<Step[]>(
    [{ op: "toBase64" }],
    [{ op: "toHex" }],
    [{ op: "toBase64" }, { op: "fromBase64" }],
    [{ op: "toHex" }, { op: "fromHex" }],
  ),
  fc
    .tuple(
      fc.constantFrom(...RECIPE_CIPHERS),
      password,
      fc.integer({ min: 1, max: 50 }),
      hex(8),
      fc.boolean(),
    )
    .map(([cipher, pw, iter, salt, andBack]) => [
      { op: "encrypt", cipher, password: pw, iter, salt } as Step,
      ...(andBack ? [{ op: "decrypt", cipher, password: pw, iter } as Step] : []),
    ]),
  fc
    .tuple(
      fc.constantFrom("SHA-1", "SHA-256", "SHA-512" as const),
      hex(8),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 1, max: 64 }),
    )
    .map(([alg, salt, iter, length]) => [{ op: "pbkdf2", alg, salt, iter, length }] as Step[]),
);

describe("recipes, against the shell", () => {
  it("random recipes give the bytes their openssl/coreutils pipeline gives", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.array(step, { minLength: 1, maxLength: 4 }).map((s) => s.flat()),
        async (input, steps) => {
          const ours = await recipe({
            input: { kind: "hex", text: Buffer.from(input).toString("hex") },
            steps,
          });
          const theirs = execFileSync("bash", ["-o", "pipefail", "-c", recipeShell(steps, input)]);
          expect(Buffer.from(ours.output).toString("hex")).toBe(theirs.toString("hex"));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps a recipe in a fragment, with or without the input, and refuses what is not one", () => {
    const steps: Step[] = [{ op: "hash", alg: "SHA-256" }, { op: "toBase64" }];
    const withInput = recipeFragment({ steps, input: { kind: "utf8", text: "secret ✓" } });
    expect(recipeFromFragment(`#${withInput}`)).toEqual({ steps, input: { kind: "utf8", text: "secret ✓" } });
    expect(recipeFromFragment(`#${recipeFragment({ steps })}`)).toEqual({ steps });
    expect(recipeFromFragment("#recipe=not-json")).toBeNull();
    expect(
      recipeFromFragment(`#recipe=${Buffer.from('{"steps":[{"op":"rm"}]}').toString("base64url")}`),
    ).toBeNull();
    expect(recipeFromFragment("")).toBeNull();
  });

  it("names the step that fails", async () => {
    await expect(
      recipe({
        input: { kind: "utf8", text: "x" },
        steps: [{ op: "toHex" }, { op: "decrypt", cipher: "AES-256-CBC", password: "p", iter: 1 }],
      }),
    ).rejects.toMatchObject({ field: "step-1" });
    await expect(recipe({ input: { kind: "utf8", text: "x" }, steps: [] })).rejects.toMatchObject({
      field: "steps",
    });
  });
});
