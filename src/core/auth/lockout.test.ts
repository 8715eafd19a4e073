import { describe, expect, it } from "vitest";
import { accountDelaySeconds, FREE_ACCOUNT_FAILURES, MAX_ACCOUNT_DELAY_SECONDS, waitPhrase } from "./lockout";

describe("accountDelaySeconds", () => {
  it("costs nothing for the first few failures", () => {
    for (let i = 0; i < FREE_ACCOUNT_FAILURES; i++) expect(accountDelaySeconds(i)).toBe(0);
  });
  it("doubles after that, up to a cap: a delay, never a lock", () => {
    expect(accountDelaySeconds(FREE_ACCOUNT_FAILURES)).toBe(1);
    expect(accountDelaySeconds(FREE_ACCOUNT_FAILURES + 1)).toBe(2);
    expect(accountDelaySeconds(FREE_ACCOUNT_FAILURES + 4)).toBe(16);
    expect(accountDelaySeconds(1000)).toBe(MAX_ACCOUNT_DELAY_SECONDS);
  });
});

describe("waitPhrase", () => {
  it("says seconds under a minute and whole minutes above", () => {
    expect(waitPhrase(1)).toBe("1 second");
    expect(waitPhrase(45)).toBe("45 seconds");
    expect(waitPhrase(61)).toBe("2 minutes");
  });
});
