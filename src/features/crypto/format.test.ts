import { describe, expect, it } from "vitest";
import { formatBytes, formatLimit, tooLargeMessage } from "./format";

describe("byte counts", () => {
  it("sizes are SI: 100,000,000 bytes is 100 MB", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(999)).toBe("999 bytes");
    expect(formatBytes(3_000_000)).toBe("3 MB");
    expect(formatBytes(100_000_000)).toBe("100 MB");
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
