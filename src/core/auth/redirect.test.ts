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
