import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-policy";

describe("passwordProblem", () => {
  it("accepts a long, uncommon password", () => {
    expect(passwordProblem("correct horse battery staple")).toBeNull();
  });

  it("rejects short and overlong passwords with the limit in the message", () => {
    expect(passwordProblem("abc123")).toBe("Use at least 10 characters.");
    expect(passwordProblem("x".repeat(129).replace(/^x/, "y"))).toBe("Use at most 128 characters.");
  });

  it("rejects passwords from the common list, whatever their case", () => {
    expect(passwordProblem("password123")).toMatch(/most common/);
    expect(passwordProblem("QWERTYUIOP")).toMatch(/most common/);
    expect(passwordProblem("1q2w3e4r5t")).toMatch(/most common/);
  });

  it("rejects a single repeated character", () => {
    expect(passwordProblem("zzzzzzzzzzzz")).toMatch(/repeated/);
  });
});

describe("passwordProblem: strength score", () => {
  it("rejects long but guessable passwords, with zxcvbn's advice", () => {
    expect(passwordProblem("abcabcabcabc")).toMatch(/too easy to guess.*Repeated/);
    expect(passwordProblem("0000000001")).toMatch(/too easy to guess/);
  });

  it("counts the user's own name and email as known words", () => {
    expect(passwordProblem("zorblaxquintavius")).toBeNull();
    expect(passwordProblem("zorblaxquintavius", ["Zorblax Quintavius", "zorblax@example.com"])).toMatch(
      /too easy to guess/,
    );
  });

  it("accepts passphrases", () => {
    expect(passwordProblem("a-long-unusual-passphrase")).toBeNull();
  });
});
