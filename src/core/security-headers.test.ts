import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "./security-headers.mjs";

describe("security headers", () => {
  it("never allows eval in production, and forbids framing", () => {
    const csp = contentSecurityPolicy(false);
    // The quoted keyword: 'wasm-unsafe-eval' (WebAssembly compilation only) is allowed.
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("'wasm-unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-src 'none'");
  });

  it("refuses inline event-handler attributes even though inline script elements are allowed", () => {
    expect(contentSecurityPolicy(false)).toContain("script-src-attr 'none'");
  });

  it("allows eval only in development", () => {
    expect(contentSecurityPolicy(true)).toContain("'unsafe-eval'");
  });

  it("sends nosniff, a referrer policy and a permissions policy", () => {
    const names = securityHeaders(false).map((header) => header.key);
    expect(names).toEqual(
      expect.arrayContaining(["X-Content-Type-Options", "Referrer-Policy", "Permissions-Policy"]),
    );
  });
});
