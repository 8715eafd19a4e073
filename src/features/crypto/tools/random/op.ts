/**
 * The random-bytes tool's operation.
 */
import * as c from "@/core/crypto";
import { encode, FieldError, type OutputEncoding } from "../../op-base";

function randomBytes(a: { length: number; output: OutputEncoding }): { value: string } {
  if (!Number.isSafeInteger(a.length) || a.length < 1 || a.length > c.RANDOM_MAX_LENGTH) {
    throw new FieldError(
      "INVALID_PARAMETER",
      `Length must be a whole number of bytes from 1 to ${c.RANDOM_MAX_LENGTH.toLocaleString("en-US")}`,
      "length",
    );
  }
  return { value: encode(c.randomBytes(a.length), a.output) };
}

export const ops = { randomBytes };
