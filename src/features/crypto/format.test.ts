import { describe, expect, it } from "vitest";
import { formatBytes, formatLimit, tooLargeMessage, withArticle } from "./format";

describe("byte counts", () => {
  it("sizes are binary too: 1,048,576 bytes is 1 MiB, as the limits say", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(999)).toBe("999 bytes");
    expect(formatBytes(1024 * 1024)).toBe("1 MiB");
    expect(formatBytes(3_000_000)).toBe("2.86 MiB");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3 MiB");
  });

  it("key types take the article they are read with", () => {
    expect(["EC", "RSA", "Ed25519", "X448", "DSA", "DH"].map(withArticle)).toEqual([
      "an EC",
      "an RSA",
      "an Ed25519",
      "an X448",
      "a DSA",
      "a DH",
    ]);
  });

  it("limits are binary: 4 × 1024 × 1024 is 4 MiB, not 4.19 MB", () => {
    expect(formatLimit(4 * 1024 * 1024)).toBe("4 MiB");
    expect(formatLimit(256 * 1024 * 1024)).toBe("256 MiB");
    expect(formatLimit(64 * 1024)).toBe("64 KiB");
    expect(formatLimit(1536)).toBe("1.5 KiB");
    expect(formatLimit(1000)).toBe("1,000 bytes");
    expect(tooLargeMessage("big.pem", 4 * 1024 * 1024)).toBe("big.pem is larger than 4 MiB");
  });
});
