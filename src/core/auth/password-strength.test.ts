import { describe, expect, it, vi } from "vitest";
import { estimatePassword, MIN_PASSWORD_SCORE } from "./password-strength";

describe("estimatePassword", () => {
  it("scores a passphrase as acceptable and a repeated pattern as not", () => {
    const good = estimatePassword("correct horse battery staple");
    expect(good.score).toBeGreaterThanOrEqual(MIN_PASSWORD_SCORE);
    expect(good.acceptable).toBe(true);
    const bad = estimatePassword("abcabcabcabc");
    expect(bad.acceptable).toBe(false);
    expect(bad.label).toBe("Very weak");
    expect(bad.warning).toMatch(/Repeated/);
    expect(bad.suggestions.length).toBeGreaterThan(0);
  });
});

describe("one estimator per process", () => {
  it("is shared by every copy of the module (the server bundles it into several chunks)", async () => {
    const key = Symbol.for("abacus.password-estimator");
    vi.resetModules();
    const first = await import("./password-strength");
    first.estimatePassword("correct horse battery");
    const built = (globalThis as Record<symbol, unknown>)[key];
    expect(built).toBeDefined();
    vi.resetModules();
    const second = await import("./password-strength");
    expect(second).not.toBe(first);
    second.estimatePassword("staple paper clip 9");
    expect((globalThis as Record<symbol, unknown>)[key]).toBe(built);
  });
});
