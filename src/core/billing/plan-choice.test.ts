import { describe, expect, it } from "vitest";
import { decodePlanChoice, encodePlanChoice, planChoiceFromQuery } from "./plan-choice";

describe("the plan chosen before signing up", () => {
  it("is read from checkout's query and survives its cookie", () => {
    const choice = planChoiceFromQuery(new URLSearchParams("plan=pro&interval=yearly&currency=jpy"));
    expect(choice).toEqual({ plan: "pro", interval: "yearly", currency: "JPY" });
    if (!choice) throw new Error("no choice");
    expect(decodePlanChoice(encodePlanChoice(choice))).toEqual(choice);
  });

  it("names only paid plans and known shapes", () => {
    expect(planChoiceFromQuery(new URLSearchParams("plan=free"))).toBeNull();
    expect(planChoiceFromQuery(new URLSearchParams("plan=team&currency=<script>"))).toBeNull();
    expect(planChoiceFromQuery(new URLSearchParams("plan=team&interval=weekly"))).toEqual({
      plan: "team",
      interval: "monthly",
      currency: "USD",
    });
    expect(decodePlanChoice("garbage")).toBeNull();
    expect(decodePlanChoice(undefined)).toBeNull();
  });
});
