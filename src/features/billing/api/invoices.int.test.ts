import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../../../../tests/support/db";

// The accounting API runs for real against a test database (the API-key gate, quota and all); only
// the process-wide pool is the test's, and the session lookup reads a test header instead of Better
// Auth's cookie (the signed-in path through a real session is in tests/e2e/invoices.spec.ts).
const h = vi.hoisted(() => ({ db: undefined as unknown }));
vi.mock("@/server/db/client", () => ({ getDb: () => h.db }));
vi.mock("@/server/authz", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/server/authz")>()),
  loadViewer: async (_db: unknown, _auth: unknown, headers: Headers) => {
    const id = headers.get("x-test-user");
    if (!id) return null;
    return {
      sessionId: "s",
      impersonatedBy: null,
      activeOrganizationId: headers.get("x-test-org"),
      user: {
        id,
        name: id,
        email: `${id}@example.com`,
        emailVerified: true,
        role: id === "u-admin" ? "admin" : "user",
        onboardingStep: "done",
      },
    };
  },
}));

const { invoiceResponse, listInvoicesResponse } = await import("./invoices");
const { settlePaid } = await import("../server/settle");
const { lockOrganizationBilling } = await import("../server/outcome");
const { currentSigningKey } = await import("../server/receipt-keys");
const { newApiKeySecret } = await import("@/features/api-keys/server");
const { forgetRefusals } = await import("@/server/rate-limit");
const { verifyReceipt } = await import("@/core/receipts/receipt");
const { publishedKeys, toReceiptKeys } = await import("../server/receipt-keys");
const { apiKeys, member, orders, organization, payments, subscriptions, user } = await import(
  "@/server/db/schema"
);
const { activeSubscription } = await import("../../../../tests/support/db");

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let keyA: string;
let keyB: string;
let client = 0;

async function paidOrder(organizationId: string, paidAt: Date, amounts: { net: bigint; tax: bigint }) {
  const [row] = await t.db
    .insert(orders)
    .values({
      organizationId,
      idempotencyKey: crypto.randomUUID(),
      plan: "pro",
      interval: "monthly",
      currency: "EUR",
      subtotalMinor: amounts.net,
      netMinor: amounts.net,
      taxMinor: amounts.tax,
      totalMinor: amounts.net + amounts.tax,
      taxRate: "19",
      taxTreatment: "exclusive",
      basePriceUsd: "20",
      fxRate: "0.95",
      billingName: `${organizationId} GmbH`,
      billingCountry: "DE",
    })
    .returning();
  if (!row) throw new Error("no order");
  await t.db.insert(payments).values({
    orderId: row.id,
    provider: "test",
    status: "unknown",
    amountMinor: row.totalMinor,
    currency: "EUR",
    cardBrand: "visa",
    cardLast4: "4242",
  });
  const key = await currentSigningKey(t.db as never);
  await t.db.transaction(async (tx) => {
    await lockOrganizationBilling(tx, organizationId);
    await settlePaid(tx, row, `ref-${row.id}`, { key, paidAt });
  });
}

/** A key as the dashboard makes one (`abk_` and random text, stored as its hash). */
async function keyFor(organizationId: string) {
  const key = newApiKeySecret();
  await t.db
    .insert(apiKeys)
    .values({ organizationId, createdBy: "u-a", name: "books", prefix: key.prefix, hash: key.hash });
  return key.secret;
}

function get(path: string, headers: Record<string, string> = {}) {
  client += 1;
  return new Request(`http://localhost${path}`, {
    headers: { "x-forwarded-for": `10.7.0.${client % 250}`, ...headers },
  });
}

beforeAll(async () => {
  t = await createTestDatabase();
  h.db = t.db;
  forgetRefusals();
  await t.db.insert(user).values([
    { id: "u-a", name: "A", email: "a@example.com", onboardingStep: "done" },
    { id: "u-b", name: "B", email: "b@example.com", onboardingStep: "done" },
    { id: "u-admin", name: "Admin", email: "admin@example.com", onboardingStep: "done", role: "admin" },
  ]);
  await t.db.insert(organization).values([
    { id: "org-a", name: "Alpha", slug: "alpha" },
    { id: "org-b", name: "Beta", slug: "beta" },
  ]);
  await t.db.insert(member).values([
    { id: "m-a", organizationId: "org-a", userId: "u-a", role: "member" },
    { id: "m-b", organizationId: "org-b", userId: "u-b", role: "owner" },
  ]);
  // Alpha: three invoices (the third with a cent-exact odd total); Beta: one.
  await paidOrder("org-a", new Date("2026-01-05T00:00:00Z"), { net: 1900n, tax: 361n });
  await paidOrder("org-b", new Date("2026-01-06T00:00:00Z"), { net: 1900n, tax: 361n });
  await paidOrder("org-a", new Date("2026-02-05T00:00:00Z"), { net: 1900n, tax: 361n });
  await paidOrder("org-a", new Date("2026-03-05T00:00:00Z"), { net: 1901n, tax: 361n });
  // Settling those past orders started past periods: put both on a current Pro plan (its API burst).
  for (const org of ["org-a", "org-b"]) {
    const current = activeSubscription(org, "pro");
    await t.db
      .insert(subscriptions)
      .values(current)
      .onConflictDoUpdate({ target: subscriptions.organizationId, set: current });
  }
  keyA = await keyFor("org-a");
  keyB = await keyFor("org-b");
});
afterAll(() => t.drop());

describe("GET /api/v1/invoices", () => {
  it("lists the key's organization's invoices newest first, in pages, with exact decimal strings", async () => {
    const first = await listInvoicesResponse(
      get("/api/v1/invoices?limit=2", { authorization: `Bearer ${keyA}` }),
    );
    expect(first.status).toBe(200);
    expect(first.headers.get("RateLimit-Limit")).toMatch(/^\d+$/);
    const page1 = await first.json();
    expect(page1.data.map((i: { number: string }) => i.number)).toEqual([
      "INV-2026-000004",
      "INV-2026-000003",
    ]);
    expect(page1.nextAfter).toBe("INV-2026-000003");
    expect(page1.data[0]).toMatchObject({
      status: "paid",
      currency: "EUR",
      net: "19.01",
      tax: "3.61",
      total: "22.62",
      creditNotes: [],
      lines: [
        { position: 1, kind: "plan", amount: "19.01" },
        { position: 2, kind: "tax", amount: "3.61" },
      ],
    });
    // The signed receipt travels as its exact bytes and verifies; it names the invoice.
    const keys = toReceiptKeys(await publishedKeys(t.db as never));
    const outcome = verifyReceipt(page1.data[0].receipt.payload, page1.data[0].receipt.signature, keys);
    expect(outcome.valid && outcome.receipt.invoiceNumber).toBe("INV-2026-000004");

    const second = await (
      await listInvoicesResponse(
        get("/api/v1/invoices?limit=2&after=INV-2026-000003", { authorization: `Bearer ${keyA}` }),
      )
    ).json();
    expect(second.data.map((i: { number: string }) => i.number)).toEqual(["INV-2026-000001"]);
    expect(second.nextAfter).toBeNull();

    const beta = await (
      await listInvoicesResponse(get("/api/v1/invoices", { authorization: `Bearer ${keyB}` }))
    ).json();
    expect(beta.data.map((i: { number: string }) => i.number)).toEqual(["INV-2026-000002"]);
  });

  it("refuses bad paging with a specific message, and callers with neither key nor session", async () => {
    const bad = async (query: string) =>
      (
        await (
          await listInvoicesResponse(get(`/api/v1/invoices?${query}`, { authorization: `Bearer ${keyA}` }))
        ).json()
      ).error.message;
    expect(await bad("limit=51")).toBe("limit must be at most 50");
    expect(await bad("limit=0")).toBe("limit must be at least 1");
    expect(await bad("after=42")).toBe("after must be an invoice number such as INV-2026-000042");
    const anonymous = await listInvoicesResponse(get("/api/v1/invoices"));
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("unauthorized");
    const badKey = await listInvoicesResponse(get("/api/v1/invoices", { authorization: "Bearer abk_nope" }));
    expect(badKey.status).toBe(401);
  });

  it("lists the session's active organization's invoices", async () => {
    const response = await listInvoicesResponse(
      get("/api/v1/invoices", { "x-test-user": "u-b", "x-test-org": "org-b" }),
    );
    expect((await response.json()).data.map((i: { number: string }) => i.number)).toEqual([
      "INV-2026-000002",
    ]);
    // An active organization the user is not a member of lists nothing of it.
    const foreign = await listInvoicesResponse(
      get("/api/v1/invoices", { "x-test-user": "u-b", "x-test-org": "org-a" }),
    );
    expect(foreign.status).toBe(409);
  });
});

describe("GET /api/v1/invoices/{number}", () => {
  it("answers the key's own invoice and 404 for another organization's", async () => {
    const own = await invoiceResponse(get("/x", { authorization: `Bearer ${keyA}` }), "INV-2026-000001");
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({
      number: "INV-2026-000001",
      total: "22.61",
      billing: { name: "org-a GmbH" },
    });
    const other = await invoiceResponse(get("/x", { authorization: `Bearer ${keyB}` }), "INV-2026-000001");
    expect(other.status).toBe(404);
    const missing = await invoiceResponse(get("/x", { authorization: `Bearer ${keyA}` }), "INV-2026-000099");
    expect(missing.status).toBe(404);
    const malformed = await invoiceResponse(get("/x", { authorization: `Bearer ${keyA}` }), "INV-26-1");
    expect(malformed.status).toBe(400);
  });

  it("answers members of the invoice's organization and platform admins in a session, 404 to others", async () => {
    const as = (userId: string) => invoiceResponse(get("/x", { "x-test-user": userId }), "INV-2026-000001");
    expect((await as("u-a")).status).toBe(200);
    expect((await as("u-admin")).status).toBe(200);
    expect((await as("u-b")).status).toBe(404);
  });
});
