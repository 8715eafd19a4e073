import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invitation, organization, user } from "@/server/db/schema";
import { createTestDatabase } from "../../../tests/support/db";
import { completeStep, currentStep, goBack, pendingInvitationsFor, savePreferences } from "./service";

let t: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.insert(user).values([
    { id: "u1", name: "One", email: "one@example.com" },
    { id: "u2", name: "Two", email: "Two@Example.com" },
  ]);
});
afterAll(async () => {
  await t.drop();
});

describe("onboarding progress on the server", () => {
  it("starts at the profile step and advances one step at a time", async () => {
    expect(await currentStep(t.db, "u1")).toBe("profile");
    expect(await completeStep(t.db, "u1", "organization")).toEqual({
      ok: false,
      error: "Finish the earlier steps first.",
    });
    expect(await completeStep(t.db, "u1", "profile")).toEqual({ ok: true, step: "organization" });
    expect(await completeStep(t.db, "u1", "organization")).toEqual({ ok: true, step: "preferences" });
  });

  it("goes back a step and resumes from there", async () => {
    expect(await goBack(t.db, "u1")).toBe("organization");
    expect(await currentStep(t.db, "u1")).toBe("organization");
    expect(await completeStep(t.db, "u1", "organization")).toEqual({ ok: true, step: "preferences" });
    expect(await completeStep(t.db, "u1", "preferences")).toEqual({ ok: true, step: "plan" });
    expect(await completeStep(t.db, "u1", "plan")).toEqual({ ok: true, step: "done" });
    expect(await completeStep(t.db, "u1", "plan")).toEqual({
      ok: false,
      error: "You have already finished setting up.",
    });
    expect(await goBack(t.db, "u1")).toBe("done");
  });

  it("two simultaneous completions of one step advance it once", async () => {
    const [a, b] = await Promise.all([
      completeStep(t.db, "u2", "profile"),
      completeStep(t.db, "u2", "profile"),
    ]);
    expect(a.ok && b.ok).toBe(true);
    expect(await currentStep(t.db, "u2")).toBe("organization");
  });

  it("lists pending, unexpired invitations by email, case-insensitively", async () => {
    await t.db.insert(organization).values({ id: "o1", name: "Acme", slug: "acme" });
    const soon = new Date(Date.now() + 86_400_000);
    await t.db.insert(invitation).values([
      {
        id: "i1",
        organizationId: "o1",
        email: "two@example.com",
        role: "admin",
        inviterId: "u1",
        expiresAt: soon,
      },
      {
        id: "i2",
        organizationId: "o1",
        email: "two@example.com",
        inviterId: "u1",
        expiresAt: new Date(Date.now() - 1000),
      },
      {
        id: "i3",
        organizationId: "o1",
        email: "two@example.com",
        inviterId: "u1",
        expiresAt: soon,
        status: "canceled",
      },
      { id: "i4", organizationId: "o1", email: "someone@example.com", inviterId: "u1", expiresAt: soon },
    ]);
    const found = await pendingInvitationsFor(t.db, "Two@Example.com");
    expect(found.map((i) => [i.id, i.organizationName, i.role, i.inviterName])).toEqual([
      ["i1", "Acme", "admin", "One"],
    ]);
  });

  it("stores preferences on the organization", async () => {
    await savePreferences(t.db, "o1", { defaultCurrency: "JPY", roundingMode: "half-up", precision: 30 });
    const [row] = await t.db.select().from(organization).where(eq(organization.id, "o1"));
    expect(row).toMatchObject({ defaultCurrency: "JPY", roundingMode: "half-up", precision: 30 });
  });
});
