import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pageViews, rateLimitEvents } from "@/server/db/schema";
import { forgetRefusals } from "@/server/rate-limit";
import { createTestDatabase } from "../../../tests/support/db";
import { countedPath, recordPageView } from "./page-views";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});
beforeEach(async () => {
  await t.db.delete(pageViews);
  await t.db.delete(rateLimitEvents);
  // The instance's memory of refused clients goes with the events it was learned from.
  forgetRefusals();
});

describe("countedPath", () => {
  it("keeps known routes, drops query, fragment and a trailing slash, folds catch-alls", () => {
    expect(countedPath("/")).toBe("/");
    expect(countedPath("/pricing?currency=CHF#yearly")).toBe("/pricing");
    expect(countedPath("/docs/")).toBe("/docs");
    expect(countedPath("/admin/users")).toBe("/admin/users");
    expect(countedPath("/sign-in/factor/two")).toBe("/sign-in");
  });

  it("ignores unknown paths, the API, other origins and junk", () => {
    for (const bad of [
      "/api/views",
      "/monitoring",
      "/no-such-page",
      "/sign-inx",
      "https://evil.example/pricing",
      "//evil.example/pricing",
      "/\\evil",
      "pricing",
      "",
      `/${"a".repeat(600)}`,
      42,
      null,
    ]) {
      expect(countedPath(bad), String(bad)).toBeUndefined();
    }
  });
});

describe("recordPageView", () => {
  it("counts views per day and path", async () => {
    for (const path of ["/", "/pricing", "/pricing?x=1", "/nope"])
      await recordPageView(t.db, path, "client-a");
    const rows = await t.db.select().from(pageViews);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      rows.map(({ day, path, views }) => ({ day, path, views })).sort((a, b) => a.path.localeCompare(b.path)),
    ).toEqual([
      { day: today, path: "/", views: 1 },
      { day: today, path: "/pricing", views: 2 },
    ]);
  });

  it("limits one client without affecting another", async () => {
    const rule = { bucket: "page-views", limit: 2, windowSeconds: 60 };
    expect(await recordPageView(t.db, "/", "client-a", rule)).toBe("counted");
    expect(await recordPageView(t.db, "/", "client-a", rule)).toBe("counted");
    expect(await recordPageView(t.db, "/", "client-a", rule)).toBe("limited");
    expect(await recordPageView(t.db, "/", "client-b", rule)).toBe("counted");
    expect((await t.db.select().from(pageViews))[0]?.views).toBe(3);
  });
});
