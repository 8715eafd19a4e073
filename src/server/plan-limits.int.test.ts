import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeSubscription, createTestDatabase } from "../../tests/support/db";
import type { Db } from "./db/client";
import { invitation, member, organization, subscriptions, user } from "./db/schema";
import { memberLimitOf, memberLimitProblem } from "./plan-limits";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db as unknown as Db;
  await db.insert(user).values([
    { id: "u1", name: "Ada", email: "ada@example.com" },
    { id: "u2", name: "Bob", email: "bob@example.com" },
  ]);
  await db.insert(organization).values([
    { id: "free", name: "Free Co", slug: "free-co" },
    { id: "pro", name: "Pro Co", slug: "pro-co" },
  ]);
  await db.insert(subscriptions).values(activeSubscription("pro", "pro"));
  await db.insert(member).values([
    { id: "m1", organizationId: "free", userId: "u1", role: "owner" },
    { id: "m2", organizationId: "pro", userId: "u1", role: "owner" },
  ]);
});
afterAll(async () => {
  await t.drop();
});

describe("members per organization", () => {
  it("follows the plan: Free 1, Pro 5", async () => {
    expect(await memberLimitOf(db, "free")).toBe(1);
    expect(await memberLimitOf(db, "pro")).toBe(5);
  });

  it("refuses a second member on Free, explaining the limit and offering Pro", async () => {
    const problem = await memberLimitProblem(db, "free", { countPending: true });
    expect(problem).toMatch(/Free plan allows 1 member.*Upgrade to Pro/);
  });

  it("counts pending invitations at invite time but not at accept time", async () => {
    const week = new Date(Date.now() + 7 * 86_400_000);
    await db.insert(invitation).values(
      ["a", "b", "c", "d"].map((x) => ({
        id: `inv-${x}`,
        organizationId: "pro",
        email: `${x}@example.com`,
        role: "member" as const,
        status: "pending",
        expiresAt: week,
        inviterId: "u1",
      })),
    );
    // 1 member + 4 pending = 5: no room for a fifth invitation, room for an accept.
    expect(await memberLimitProblem(db, "pro", { countPending: true })).toMatch(/Pro plan allows 5 members/);
    expect(await memberLimitProblem(db, "pro", { countPending: false })).toBeNull();
  });
});
