import { describe, expect, it } from "vitest";
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
