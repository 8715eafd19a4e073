import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCard } from "@/core/billing/card";
import { addPeriod } from "@/core/billing/subscription";
import { member, organization, subscriptions, user } from "@/server/db/schema";
import { loadRateTable } from "@/server/fx";
import { createTestProvider, type LedgerEntry, readLedger } from "@/server/payments/test-provider";
import { createTestDatabase } from "../../../../tests/support/db";
import { processCheckout } from "./checkout";
import { renewalKey } from "./renew";

/**
 * Crash injection with real processes on real PostgreSQL: a process is killed (SIGKILL, through the
 * test-only `BILLING_TEST_CRASH` hook) right after the provider answered and before the answer is
 * committed; the next process settles it. The provider's own record (`TEST_PROVIDER_LEDGER`, a file
 * outside every process) must hold exactly one charge per idempotency key.
 */
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let dir: string;
let ledger: string;
const START = new Date("2026-01-31T10:00:00Z");

beforeAll(async () => {
  t = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), "abacus-crash-"));
  ledger = join(dir, "provider.jsonl");
  await t.db
    .insert(user)
    .values({ id: "u1", name: "Olivia Owner", email: "o@example.com", onboardingStep: "done" });
});
afterAll(async () => {
  await t.drop();
  rmSync(dir, { recursive: true, force: true });
});

type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs a script in a process of its own against the test database and the shared ledger. */
async function spawnScript(args: string[], env: Record<string, string> = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", ...args],
      { env: { ...process.env, DATABASE_URL: t.url, TEST_PROVIDER_LEDGER: ledger, ...env } },
    );
    return { code: 0, signal: null, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; signal?: NodeJS.Signals; stdout?: string; stderr?: string };
    return { code: e.code ?? null, signal: e.signal ?? null, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}
const billingRun = (at: Date, env?: Record<string, string>) =>
  spawnScript(["scripts/tools/billing-run.ts", "--at", at.toISOString()], env);

/** The provider's record of one key: its charges (first answers) and its replays. */
function recordOf(key: string) {
  const lines = readLedger(ledger).filter((e) => e.key === key);
  return { charges: lines.filter((e) => !e.replay), replays: lines.filter((e) => e.replay) };
}
/** Every key in the provider's record has exactly one first answer. */
function oneChargePerKey() {
  const firsts = new Map<string, LedgerEntry[]>();
  for (const e of readLedger(ledger).filter((x) => !x.replay)) {
    const id = `${e.op}:${e.key}`;
    firsts.set(id, [...(firsts.get(id) ?? []), e]);
  }
  return [...firsts.values()].every((list) => list.length === 1);
}

async function newOrganization(n: number) {
  const id = `org-crash-${n}`;
  await t.db.insert(organization).values({ id, name: `Crash ${n}`, slug: `crash-${n}` });
  await t.db.insert(member).values({ id: `mc-${n}`, organizationId: id, userId: "u1", role: "owner" });
  return id;
}

/** Stands for the claim's lease running out (minutes, in real time) without waiting for it. */
async function leaseLapses(orderId: string) {
  await t.sql`update orders set claimed_until = now() - interval '1 second' where id = ${orderId}`;
}

const subscriptionOf = async (orgId: string) =>
  (await t.db.select().from(subscriptions).where(eq(subscriptions.organizationId, orgId)))[0];

async function documentsOf(orderId: string) {
  const invoices = await t.sql`select number, status, total_minor from invoices where order_id = ${orderId}`;
  const receipts = await t.sql`select receipt_number from receipts where order_id = ${orderId}`;
  const payments = await t.sql`select status, provider_reference from payments where order_id = ${orderId}`;
  return { invoices, receipts, payments };
}

describe("a crash between the provider's answer and the commit", () => {
  it("renewal: the restarted clock settles the period once, with the provider's first charge", async () => {
    const orgId = await newOrganization(1);
    const checkedCard = checkCard({ number: "4242424242424242", expiry: "12/30", cvc: "123" }, START);
    if (!checkedCard.ok) throw new Error("bad test card");
    const bought = await processCheckout(
      t.db,
      createTestProvider({ ledgerPath: ledger }),
      await loadRateTable(t.db),
      {
        organization: { id: orgId, name: "Crash 1" },
        userId: "u1",
        idempotencyKey: crypto.randomUUID(),
        plan: "pro",
        interval: "monthly",
        currency: "EUR",
        billing: { name: "Crash 1 GmbH", country: "DE", vatId: null },
        card: checkedCard.card,
      },
      { now: () => START },
    );
    expect(bought).toMatchObject({ status: "paid" });
    const end = addPeriod(START, "monthly");
    const at = new Date(end.getTime() + 3_600_000);
    const key = renewalKey(orgId, end, 1);

    // 1. The clock charges the period and is killed before it records the answer.
    const crashed = await billingRun(at, { BILLING_TEST_CRASH: "after_saved_charge" });
    expect(crashed).toMatchObject({ signal: "SIGKILL", stdout: "" });
    const first = recordOf(key);
    expect(first.charges).toHaveLength(1);
    expect(first.charges[0]?.result).toMatchObject({ status: "succeeded" });
    const [pending] = await t.sql`select id, status, claimed_until, total_minor from orders
      where organization_id = ${orgId} and period_start = ${end.toISOString()}::timestamptz`;
    expect(pending).toMatchObject({ status: "pending" });
    expect(pending?.claimed_until).not.toBeNull();
    expect(String(pending?.total_minor)).toBe(first.charges[0]?.amount);
    const orderId = String(pending?.id);
    expect(await documentsOf(orderId)).toMatchObject({
      invoices: [],
      receipts: [],
      payments: [{ status: "unknown", provider_reference: null }],
    });
    expect((await subscriptionOf(orgId))?.currentPeriodEnd).toEqual(end);

    // 2. Another run while the dead process's lease holds: it neither charges nor settles.
    const early = await billingRun(at);
    expect(early).toMatchObject({ code: 0, signal: null });
    expect(JSON.parse(early.stdout)).toMatchObject({ renewed: 0 });
    expect(recordOf(key)).toMatchObject({ charges: first.charges, replays: [] });

    // 3. Once the lease lapses, the restarted clock asks again under the same key: the provider
    //    answers with its first charge (a replay, no new money) and the period is settled once.
    await leaseLapses(orderId);
    const restarted = await billingRun(at);
    expect(restarted).toMatchObject({ code: 0, signal: null });
    expect(JSON.parse(restarted.stdout)).toMatchObject({ renewed: 1, pending: 0, failed: 0 });
    const after = recordOf(key);
    expect(after.charges).toEqual(first.charges);
    expect(after.replays).toHaveLength(1);
    const reference = (first.charges[0]?.result as { reference?: string } | undefined)?.reference;
    const docs = await documentsOf(orderId);
    expect(docs.payments).toEqual([{ status: "succeeded", provider_reference: reference }]);
    expect(docs.receipts).toHaveLength(1);
    expect(docs.invoices).toHaveLength(1);
    expect(docs.invoices[0]).toMatchObject({
      status: "paid",
      number: expect.stringMatching(/^INV-2026-\d{6}$/),
    });
    expect(String(docs.invoices[0]?.total_minor)).toBe(first.charges[0]?.amount);
    const renewals =
      await t.sql`select status from orders where organization_id = ${orgId} and period_start is not null`;
    expect(renewals.map((r) => r.status)).toEqual(["paid"]);
    expect(await subscriptionOf(orgId)).toMatchObject({
      status: "active",
      currentPeriodStart: end,
      currentPeriodEnd: addPeriod(end, "monthly"),
    });

    // 4. Running the clock again changes nothing and asks the provider nothing.
    const lines = readLedger(ledger).length;
    expect(JSON.parse((await billingRun(at)).stdout)).toMatchObject({ due: 0, renewed: 0 });
    expect(readLedger(ledger)).toHaveLength(lines);
    expect(oneChargePerKey()).toBe(true);
  });

  it("first purchase: the submit retried after the crash settles it, never a second charge", async () => {
    const orgId = await newOrganization(2);
    const formKey = crypto.randomUUID();
    const submit = (idempotencyKey: string, env?: Record<string, string>) =>
      spawnScript(
        [
          "tests/support/checkout-once.ts",
          JSON.stringify({
            organizationId: orgId,
            organizationName: "Crash 2",
            userId: "u1",
            idempotencyKey,
            cardNumber: "4242424242424242",
            at: START.toISOString(),
          }),
        ],
        env,
      );
    const key = `${orgId}:${formKey}`;

    // 1. The provider approves the checkout; the process dies before the order is settled.
    const crashed = await submit(formKey, { BILLING_TEST_CRASH: "after_checkout_charge" });
    expect(crashed).toMatchObject({ signal: "SIGKILL", stdout: "" });
    const first = recordOf(key);
    expect(first.charges).toHaveLength(1);
    expect(first.charges[0]?.result).toMatchObject({ status: "succeeded" });
    const [pending] = await t.sql`select id, status from orders where organization_id = ${orgId}`;
    expect(pending).toMatchObject({ status: "pending" });
    const orderId = String(pending?.id);
    expect(await documentsOf(orderId)).toMatchObject({ invoices: [], receipts: [] });
    expect(await t.sql`select 1 from subscriptions where organization_id = ${orgId}`).toHaveLength(0);

    // 2. A new form (another key) meanwhile is refused without asking the provider.
    const other = await submit(crypto.randomUUID());
    expect(JSON.parse(other.stdout)).toMatchObject({ status: "pending", orderId });
    expect(readLedger(ledger).filter((e) => e.key.startsWith(`${orgId}:`))).toHaveLength(1);

    // 3. The same form submitted again once the lease lapsed: the provider replays its first answer.
    await leaseLapses(orderId);
    const retried = await submit(formKey);
    expect(JSON.parse(retried.stdout)).toMatchObject({ status: "paid", orderId });
    const after = recordOf(key);
    expect(after.charges).toEqual(first.charges);
    expect(after.replays).toHaveLength(1);
    const reference = (first.charges[0]?.result as { reference?: string } | undefined)?.reference;
    const docs = await documentsOf(orderId);
    expect(docs.payments).toEqual([{ status: "succeeded", provider_reference: reference }]);
    expect(docs.invoices).toHaveLength(1);
    expect(docs.invoices[0]).toMatchObject({ status: "paid" });
    expect(docs.receipts).toHaveLength(1);
    const [sub] = await t.sql`select plan, status from subscriptions where organization_id = ${orgId}`;
    expect(sub).toMatchObject({ plan: "pro", status: "active" });
    const [card] = await t.sql`select method_reference from payment_methods where organization_id = ${orgId}`;
    expect(card?.method_reference).toBe(
      (first.charges[0]?.result as { saved?: { methodReference: string } } | undefined)?.saved
        ?.methodReference,
    );

    // 4. Submitting that form once more answers the paid order and asks the provider nothing.
    const lines = readLedger(ledger).length;
    expect(JSON.parse((await submit(formKey)).stdout)).toMatchObject({ status: "paid", orderId });
    expect(readLedger(ledger)).toHaveLength(lines);
    expect(oneChargePerKey()).toBe(true);
  });
});
