import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./redirect";

describe("safeRedirectPath", () => {
  it("keeps same-origin paths with their query and hash", () => {
    expect(safeRedirectPath("/dashboard")).toBe("/dashboard");
    expect(safeRedirectPath("/checkout?plan=pro&interval=yearly")).toBe("/checkout?plan=pro&interval=yearly");
    expect(safeRedirectPath("/docs#receipts")).toBe("/docs#receipts");
  });

  it.each([
    "https://evil.example/",
    "//evil.example/path",
    "/\\evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/ok\u0000",
    "",
  ])("refuses %j", (value) => {
    expect(safeRedirectPath(value)).toBe("/dashboard");
  });

  // Each normalises to a protocol-relative `//evil.com` (or a backslash path) only after parsing.
  it.each([
    "/.//evil.com",
    "/..//evil.com",
    "/%2e//evil.com",
    "/%2E//evil.com",
    "/%2e%2e//evil.com",
    "/a/..//evil.com",
    "/a/%2e%2e//evil.com",
    "/././/evil.com",
    "/.//evil.com/path?x=1#y",
    "/..///evil.com",
    "/./\\evil.com",
    // Backslashes and the tabs and newlines URL parsers drop, raw or in the middle of a path.
    "/\\/evil.com",
    "/\\\\evil.com",
    "\\\\evil.com",
    "/\t/evil.com",
    "/\n/evil.com",
    "/\r\n/evil.com",
    "\t//evil.com",
    "/.\t/evil.com",
    "/\t/\tevil.com",
  ])("refuses %j, which normalises off-site", (value) => {
    const result = safeRedirectPath(value);
    expect(result.startsWith("//")).toBe(false);
    expect(new URL(result, "https://abacus.invalid").origin).toBe("https://abacus.invalid");
    expect(result).toBe("/dashboard");
  });

  it("still normalises harmless dot segments", () => {
    expect(safeRedirectPath("/docs/../pricing")).toBe("/pricing");
    expect(safeRedirectPath("/a/./b")).toBe("/a/b");
    // An encoded slash is not a path separator: this stays a path on this site.
    expect(safeRedirectPath("/.%2f/evil.com")).toBe("/.%2f/evil.com");
  });

  it("keeps encoded backslashes, tabs and slashes encoded: a browser reads them as path characters", () => {
    for (const value of ["/%5C%5Cevil.com", "/%5c/evil.com", "/%09/evil.com", "/%2F%2Fevil.com"]) {
      expect(safeRedirectPath(value)).toBe(value);
      expect(new URL(safeRedirectPath(value), "https://abacus.invalid").origin).toBe(
        "https://abacus.invalid",
      );
    }
  });

  it("keeps percent-encoded characters encoded (no header injection)", () => {
    expect(safeRedirectPath("/%0d%0aSet-Cookie:x")).toBe("/%0d%0aSet-Cookie:x");
  });

  it("does not loop back into the auth screens", () => {
    expect(safeRedirectPath("/sign-in?redirect_url=/x")).toBe("/dashboard");
    expect(safeRedirectPath("/sign-up")).toBe("/dashboard");
  });

  it("uses the given fallback", () => {
    expect(safeRedirectPath(null, "/onboarding")).toBe("/onboarding");
  });
});
