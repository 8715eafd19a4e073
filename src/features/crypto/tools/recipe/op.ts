/** The recipe tool's operation: runs the steps in order, each on the previous one's bytes. */
import * as c from "@/core/crypto";
import { bytesOf, type DataSpec, FieldError } from "../../op-base";
import { RECIPE_CIPHERS, RECIPE_HASHES, RECIPE_MAX_ITER, RECIPE_MAX_STEPS, type Step } from "./steps";

/** Intermediate results are kept in memory: this much each at the most. */
const RECIPE_MAX_BYTES = 16 * 1024 * 1024;

export interface RecipeResult {
  /** Each step's output, hex, cut to 4 KiB for display. */
  steps: { hex: string; length: number }[];
  output: Uint8Array;
}

function hexBytes(text: string, field: string): Uint8Array {
  try {
    return c.hexToBytes(text);
  } catch (e) {
    throw new FieldError("BAD_HEX", e instanceof Error ? e.message : String(e), field);
  }
}

function whole(n: number, min: number, max: number, field: string, what: string): number {
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new FieldError("INVALID_PARAMETER", `${what} must be a whole number from ${min} to ${max}`, field);
  }
  return n;
}

/** openssl enc -pbkdf2 -md sha256 -iter N -pass pass:… as the core's key. */
function passwordKey(step: { password: string; iter: number }, field: string) {
  return {
    kind: "password" as const,
    password: step.password,
    kdf: "pbkdf2" as const,
    hash: "SHA-256" as const,
    iterations: whole(step.iter, 1, RECIPE_MAX_ITER, field, "Iterations"),
  };
}

async function runStep(step: Step, input: Uint8Array, i: number): Promise<Uint8Array> {
  const field = `step-${i}`;
  const fail = (e: unknown): never => {
    throw new FieldError(
      e instanceof c.CryptoInputError ? e.code : "INVALID_PARAMETER",
      `Step ${i + 1}: ${e instanceof Error ? e.message : String(e)}`,
      field,
    );
  };
  if ("alg" in step && !(RECIPE_HASHES as readonly string[]).includes(step.alg))
    fail(new Error("unknown hash"));
  if ("cipher" in step && !(RECIPE_CIPHERS as readonly string[]).includes(step.cipher))
    fail(new Error("unknown cipher"));
  try {
    switch (step.op) {
      case "hash":
        return await c.hash(step.alg, input);
      case "hmac":
        return await c.hmac(step.alg, hexBytes(step.key || "00", field), input);
      case "toBase64":
        return c.utf8ToBytes(c.bytesToBase64(input));
      case "fromBase64":
        return c.base64ToBytes(c.bytesToUtf8(input, false).replace(/\s+/g, ""));
      case "toHex":
        return c.utf8ToBytes(c.bytesToHex(input));
      case "fromHex":
        return c.hexToBytes(c.bytesToUtf8(input, false));
      case "encrypt": {
        const salt = hexBytes(step.salt, field);
        if (salt.length !== 8) fail(new Error("the salt is 8 bytes of hex (openssl enc -S)"));
        return (await c.symmetricEncrypt(step.cipher, input, { ...passwordKey(step, field), salt })).output;
      }
      case "decrypt": {
        return (await c.symmetricDecryptDetailed(step.cipher, input, passwordKey(step, field), {})).output;
      }
      case "pbkdf2":
        return await c.pbkdf2({
          password: input,
          salt: hexBytes(step.salt || "00", field),
          iterations: whole(step.iter, 1, RECIPE_MAX_ITER, field, "Iterations"),
          length: whole(step.length, 1, 1024, field, "The length"),
          hash: step.alg,
        });
      default:
        return fail(new Error(`unknown step ${(step as { op: string }).op}`));
    }
  } catch (e) {
    if (e instanceof FieldError) throw e;
    return fail(e);
  }
}

export async function recipe(a: { input: DataSpec; steps: Step[] }): Promise<RecipeResult> {
  if (!Array.isArray(a.steps) || a.steps.length === 0 || a.steps.length > RECIPE_MAX_STEPS) {
    throw new FieldError("INVALID_PARAMETER", `A recipe has 1 to ${RECIPE_MAX_STEPS} steps`, "steps");
  }
  if (a.input.kind === "file" && a.input.file.size > RECIPE_MAX_BYTES) {
    throw new FieldError("INPUT_TOO_LARGE", "Inputs up to 16 MiB are taken here", "input");
  }
  let bytes = await bytesOf("input", a.input);
  const steps: RecipeResult["steps"] = [];
  for (const [i, step] of a.steps.entries()) {
    bytes = await runStep(step, bytes, i);
    if (bytes.length > RECIPE_MAX_BYTES) {
      throw new FieldError("INPUT_TOO_LARGE", `Step ${i + 1} made more than 16 MiB`, `step-${i}`);
    }
    steps.push({ hex: c.bytesToHex(bytes.subarray(0, 4096)), length: bytes.length });
  }
  return { steps, output: bytes };
}

export const ops = { recipe };
