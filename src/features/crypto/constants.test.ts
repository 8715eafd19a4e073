import { describe, expect, it } from "vitest";
import { withScheme } from "./constants";
import type { SignatureOptions } from "./tools/sign/op";

describe("signature scheme choice", () => {
  const md5: SignatureOptions = { scheme: "auto", hash: "MD5", format: "der" };

  it("Ed25519 and Ed448 (whose Hash select is disabled) reset an earlier hash to the key's default", () => {
    expect(withScheme(md5, "Ed25519")).toEqual({ scheme: "Ed25519", hash: "default", format: "der" });
    expect(withScheme(md5, "Ed448")).toEqual({ scheme: "Ed448", hash: "default", format: "der" });
  });

  it("schemes with a hash choice keep it", () => {
    expect(withScheme(md5, "ECDSA").hash).toBe("MD5");
    expect(withScheme({ ...md5, hash: "SHA-384", pssSalt: "max" }, "RSA-PSS")).toEqual({
      scheme: "RSA-PSS",
      hash: "SHA-384",
      format: "der",
      pssSalt: "max",
    });
  });
});
