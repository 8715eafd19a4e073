import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PastDueBanner, type PastDueState } from "./past-due-banner";

const pastDue: PastDueState = {
  status: "past_due",
  plan: "pro",
  currentPeriodEnd: new Date("2026-02-28T10:00:00Z"),
  dunningAttempt: 1,
  nextRetryAt: new Date("2026-03-01T10:00:00Z"),
};
const render = (sub: PastDueState | null, canManage = true, card?: { brand: string; last4: string }) =>
  renderToStaticMarkup(<PastDueBanner subscription={sub} canManage={canManage} card={card} />);

describe("PastDueBanner", () => {
  it("says what is on hold, that Free limits apply, and when the card is tried again", () => {
    const html = render(pastDue, true, { brand: "Visa", last4: "0341" });
    expect(html).toContain("Payment failed: the Pro plan is on hold");
    expect(html).toContain("the Visa card ending 0341");
    expect(html).toContain("28 Feb 2026");
    expect(html).toContain("Free plan&#x27;s limits");
    expect(html).toContain('dateTime="2026-03-01T10:00:00.000Z"');
    expect(html).toContain("1 Mar 2026, 10:00 UTC");
    expect(html).toContain("3 attempts left");
    expect(html).toContain('href="/dashboard/billing"');
  });

  it("counts down to the last attempt", () => {
    expect(render({ ...pastDue, dunningAttempt: 3 })).toContain("1 attempt left");
  });

  it("gives members no button, only who can help", () => {
    const html = render(pastDue, false);
    expect(html).not.toContain("/dashboard/billing");
    expect(html).toContain("Ask an owner or admin to update the card.");
  });

  it("renders nothing unless the subscription is past due", () => {
    expect(render(null)).toBe("");
    expect(render({ ...pastDue, status: "active", dunningAttempt: 0, nextRetryAt: null })).toBe("");
    expect(render({ ...pastDue, status: "ended" })).toBe("");
  });
});
