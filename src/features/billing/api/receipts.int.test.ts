import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkCard } from "@/core/billing/card";
import { createTestDatabase } from "../../../../tests/support/db";

// The verify endpoint runs for real against a test database; only the process-wide pool is the test's.
const h = vi.hoisted(() => ({ db: undefined as unknown }));
vi.mock("@/server/db/client", () => ({ getDb: () => h.db }));

const { verifyReceiptResponse } = await import("./receipts");
const { processCheckout } = await import("../server/checkout");
const { publishedKeys } = await import("../server/receipt-keys");
const { createTestProvider } = await import("@/server/payments/test-provider");
const { loadRateTable } = await import("@/server/fx");
const { member, organization, receipts, user } = await import("@/server/db/schema");

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let receipt: { payload: string; signature: string; pem: string };

beforeAll(async () => {
  t = await createTestDatabase();
  h.db = t.db;
  await t.db
    .insert(user)
    .values({ id: "u1", name: "Olivia", email: "o@example.com", onboardingStep: "done" });
  await t.db.insert(organization).values({ id: "org-1", name: "Acme", slug: "acme" });
  await t.db.insert(member).values({ id: "m-1", organizationId: "org-1", userId: "u1", role: "owner" });
  const card = checkCard({ number: "4242424242424242", expiry: "12/30", cvc: "123" }, new Date("2026-11-23"));
  if (!card.ok) throw new Error("bad card");
  const outcome = await processCheckout(
    t.db,
    createTestProvider(),
    await loadRateTable(t.db),
    {
      organization: { id: "org-1", name: "Acme" },
      userId: "u1",
      idempotencyKey: crypto.randomUUID(),
      plan: "pro",
      interval: "monthly",
      currency: "JPY",
      billing: { name: "Acme KK", country: "JP", vatId: null },
      card: card.card,
    },
    { issuer: "http://localhost:3000" },
  );
  if (outcome.status !== "paid") throw new Error("not paid");
  const [row] = await t.db.select().from(receipts).where(eq(receipts.orderId, outcome.orderId));
  if (!row) throw new Error("no receipt");
  const key = (await publishedKeys(t.db)).find((k) => k.kid === row.kid);
  receipt = { payload: row.payload, signature: row.signature, pem: key?.publicKeyPem ?? "" };
});
afterAll(() => t.drop());

let client = 0;
async function verify(body: string) {
  client += 1;
  const response = await verifyReceiptResponse(
    new Request("http://localhost/api/v1/receipts/verify", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${client}` },
      body,
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What the documented OpenSSL command says of this receipt.json: true when it verifies. */
function openssl(receiptJson: string): boolean {
  const docs = readFileSync(path.join(process.cwd(), "content/docs/610-receipts.md"), "utf8");
  const block = /<!-- openssl-verify -->\s*```sh\n([\s\S]*?)```/.exec(docs)?.[1] ?? "";
  const command = block.split("\n").find((line) => line.startsWith("openssl ")) ?? "false";
  const dir = mkdtempSync(path.join(tmpdir(), "abacus-receipt-"));
  try {
    writeFileSync(path.join(dir, "receipt.json"), receiptJson);
    writeFileSync(path.join(dir, "receipt.sig"), Buffer.from(receipt.signature, "base64"));
    writeFileSync(path.join(dir, "receipt-key.pem"), receipt.pem);
    execFileSync("/bin/sh", ["-c", command], { cwd: dir, stdio: "pipe" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("POST /api/v1/receipts/verify agrees with OpenSSL", () => {
  it("verifies the genuine receipt, as text and as an object", async () => {
    expect(openssl(receipt.payload)).toBe(true);
    const asText = await verify(JSON.stringify({ receipt: receipt.payload, signature: receipt.signature }));
    expect(asText).toMatchObject({ status: 200, body: { valid: true } });
    const asObject = `{"receipt":${receipt.payload},"signature":"${receipt.signature}"}`;
    expect(await verify(asObject)).toMatchObject({ status: 200, body: { valid: true } });
  });

  it("refuses a receipt that names a key twice, which OpenSSL refuses too", async () => {
    expect(receipt.payload).toContain('"total":"2068"');
    const doubled = receipt.payload.replace('"total":"2068"', '"total":"0.01","total":"2068"');
    expect(openssl(doubled)).toBe(false);
    // As the file's text.
    const asText = await verify(JSON.stringify({ receipt: doubled, signature: receipt.signature }));
    expect(asText.status).toBe(200);
    expect(asText.body).toMatchObject({ valid: false, code: "malformed" });
    expect(asText.body.message).toMatch(/names the key "total" twice/);
    // As an object inside the request (JSON.parse would keep the second, genuine total).
    const asObject = await verify(`{"receipt":${doubled},"signature":"${receipt.signature}"}`);
    expect(asObject.status).toBe(200);
    expect(asObject.body).toMatchObject({ valid: false, code: "malformed" });
    expect(asObject.body.message).toMatch(/names the key "total" twice/);
    // A request body that repeats one of its own keys is refused as a whole.
    const twoSignatures = `{"receipt":${JSON.stringify(receipt.payload)},"signature":"AAAA","signature":"${receipt.signature}"}`;
    const refused = await verify(twoSignatures);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/names the key \\"signature\\" twice/);
  });

  it("refuses a re-written file as OpenSSL does, even when it means the same", async () => {
    const indented = JSON.stringify(JSON.parse(receipt.payload), null, 2);
    expect(openssl(indented)).toBe(false);
    const outcome = await verify(JSON.stringify({ receipt: indented, signature: receipt.signature }));
    expect(outcome.body).toMatchObject({ valid: false, code: "not_canonical" });
    expect(openssl(`${receipt.payload}\n`)).toBe(false);
    const newline = await verify(
      JSON.stringify({ receipt: `${receipt.payload}\n`, signature: receipt.signature }),
    );
    expect(newline.body).toMatchObject({ valid: false, code: "not_canonical" });
  });
});
