/**
 * The HMAC tool's operation: typed text or a streamed file, keyed by typed bytes.
 */
import * as c from "@/core/crypto";
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

/** Files are read 4 MiB at a time: progress every few percent of a big file, few calls. */
const FILE_CHUNK = 4 * 1024 * 1024;

async function hmac(
  a: { alg: c.HashAlgorithm; key: DataSpec; data: DataSpec; output: OutputEncoding },
  ctx: OpContext = {},
): Promise<DigestResult> {
  const { alg, data } = a;
  const key = await bytesOf("key", a.key);
  let mac: Uint8Array;
  let inputLength: number;
  if (data.kind === "file") {
    inputLength = data.file.size;
    mac = await at("data", () =>
      c.hmacStream(alg, key, data.file, {
        chunkSize: FILE_CHUNK,
        ...streamOptions(ctx),
      }),
    );
  } else {
    const bytes = await bytesOf("data", data);
    inputLength = bytes.length;
    mac = await at("alg", () => c.hmac(alg, key, bytes));
  }
  return { value: encode(mac, a.output), inputLength, outputLength: mac.length };
}

export const ops = { hmac };
