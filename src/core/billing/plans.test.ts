import { describe, expect, it } from "vitest";
import { featureTable, getPlan, planPriceUsd, plans, YEARLY_MONTHS } from "./plans";

describe("plans", () => {
  it("defines Free, Pro and Team in that order", () => {
    expect(plans.map((plan) => plan.id)).toEqual(["free", "pro", "team"]);
  });

  it("prices a year as ten months, exactly", () => {
    const prices = plans.map((plan) => [
      plan.id,
      planPriceUsd(plan, "monthly"),
      planPriceUsd(plan, "yearly"),
    ]);
    expect(prices).toEqual([
      ["free", "0.00", "0.00"],
      ["pro", "12.00", "120.00"],
      ["team", "39.00", "390.00"],
    ]);
    expect(YEARLY_MONTHS).toBe(10);
    expect(getPlan("team")?.name).toBe("Team");
  });

  it("keeps prices as decimal strings", () => {
    for (const plan of plans) expect(plan.monthlyUsd).toMatch(/^\d+(\.\d{1,2})?$/);
  });

  it("has a value for every plan in every feature row", () => {
    for (const row of featureTable) expect(Object.keys(row.values).sort()).toEqual(["free", "pro", "team"]);
  });

  it("returns undefined for an unknown plan", () => {
    expect(getPlan("enterprise")).toBeUndefined();
  });
});
