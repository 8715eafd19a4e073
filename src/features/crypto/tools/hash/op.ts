/**
 * The hash tool's operation. It imports only the digests (WebCrypto, hash-wasm, and @noble/hashes where
 * those lack an algorithm), so the hash-only worker (hash.worker.ts) that runs it starts fast; the
 * general worker runs it too, for typed text.
 */
import { type DigestAlgorithm, digest, digestStream, isXof } from "@/core/crypto/digest";
import {
  at,
  bytesOf,
  type DataSpec,
  type DigestResult,
  encode,
  type OpContext,
  type OutputEncoding,
  streamOptions,
} from "../../op-base";

export async function hash(
  a: { alg: DigestAlgorithm; data: DataSpec; output: OutputEncoding; length?: number },
  ctx: OpContext = {},
): Promise<DigestResult> {
  const { alg, data } = a;
  let result: Uint8Array;
  let inputLength: number;
  const length = isXof(alg) && a.length !== undefined ? { length: a.length } : {};
  if (data.kind === "file") {
    inputLength = data.file.size;
    result = await at({ INVALID_PARAMETER: "length", default: "data" }, () =>
      digestStream(alg, data.file, { ...length, ...streamOptions(ctx) }),
    );
  } else {
    const bytes = await bytesOf("data", data);
    inputLength = bytes.length;
    result = await at({ INVALID_PARAMETER: "length", default: "alg" }, () => digest(alg, bytes, length));
  }
  return { value: encode(result, a.output), inputLength, outputLength: result.length };
}

export const ops = { hash };
