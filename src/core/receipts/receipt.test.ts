import { describe, expect, it } from "vitest";
import { canonicalJson, ed25519KeyId } from "./receipt";

// RFC 8785's own examples (section 3.2.2 and 3.2.3, appendix B): the canonical form must not depend
// on which release of the canonicalize package is installed.
describe("canonicalJson", () => {
  it("writes the RFC 8785 sample exactly", () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it("sorts keys by UTF-16 code units", () => {
    const input = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew",
      "1": "One",
      "\u0080": "Control",
      "\ud83d\ude00": "Smiley",
      "\u00f6": "Latin",
    };
    expect([...canonicalJson(input).matchAll(/:"([^"]+)"/g)].map((m) => m[1])).toEqual([
      "Carriage Return",
      "One",
      "Control",
      "Latin",
      "Euro Sign",
      "Smiley",
      "Hebrew",
    ]);
  });

  it("refuses what JSON cannot carry", () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(() => canonicalJson({ a: "\ud800" })).toThrow();
  });

  it("keeps key ids stable (RFC 7638 thumbprint of a fixed key)", () => {
    expect(ed25519KeyId(new Uint8Array(32))).toBe("ogRZbCR5KTrPFCAfuYmCMwj0w7Yuk3Lr6YWQWfpkbf0");
  });
});
