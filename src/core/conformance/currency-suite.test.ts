import { describe, expect, it } from "vitest";
import { ECB_SNAPSHOT } from "../money/ecb-snapshot";
import { CHECK_GROUPS, runCurrencySuite } from "./currency-suite";

describe("currency conformance suite", () => {
  const checks = runCurrencySuite(ECB_SNAPSHOT);

  it("covers every group", () => {
    for (const g of CHECK_GROUPS) expect(checks.some((c) => c.group === g.id)).toBe(true);
  });

  it("passes on the committed rates in this runtime", () => {
    expect(checks.filter((c) => !c.pass)).toEqual([]);
  });
});
