import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env-schema";
import { createTestProvider, readLedger } from "./test-provider";

const dir = mkdtempSync(join(tmpdir(), "abacus-ledger-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const saved = (methodReference: string, idempotencyKey: string, amount = 1190n) => ({
  amount: { amount, currency: "EUR" },
  card: { customerReference: null, methodReference },
  idempotencyKey,
  description: "renewal",
  metadata: {},
});

describe("the test provider's ledger file", () => {
  it("answers a key's retry from another provider (process) with the first answer, recorded once", async () => {
    const path = join(dir, "a.jsonl");
    const one = createTestProvider({ ledgerPath: path });
    const two = createTestProvider({ ledgerPath: path });
    const first = await one.chargeSaved(saved("test_pm_approve_x", "k1"));
    expect(first).toMatchObject({ status: "succeeded", reference: expect.stringMatching(/^test_ch_/) });
    // The same key from the other instance: the first answer, though its card would now decline.
    expect(await two.chargeSaved(saved("test_pm_decline_x", "k1"))).toEqual(first);
    const declined = await two.chargeSaved(saved("test_pm_decline_x", "k2"));
    expect(declined).toMatchObject({ status: "declined", code: "card_declined" });
    expect(await one.chargeSaved(saved("test_pm_approve_x", "k2"))).toEqual(declined);
    const lines = readLedger(path);
    expect(lines.map((l) => [l.op, l.key, l.amount, Boolean(l.replay)])).toEqual([
      ["saved", "k1", "1190", false],
      ["saved", "k1", "1190", true],
      ["saved", "k2", "1190", false],
      ["saved", "k2", "1190", true],
    ]);
  });

  it("keeps one record under concurrent calls with one key", async () => {
    const path = join(dir, "b.jsonl");
    const providers = Array.from({ length: 4 }, () => createTestProvider({ ledgerPath: path }));
    const answers = await Promise.all(
      providers.flatMap((p) => [
        p.chargeSaved(saved("test_pm_approve_x", "same")),
        p.chargeSaved(saved("test_pm_approve_x", "same")),
      ]),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(readLedger(path).filter((l) => !l.replay)).toHaveLength(1);
    expect(readLedger(path)).toHaveLength(8);
  });

  it("the crash hook is refused in production", () => {
    const base = { DATABASE_URL: "postgres://localhost/abacus", DATABASE_MODE: "embedded" };
    expect(parseEnv({ ...base, BILLING_TEST_CRASH: "after_saved_charge" }).BILLING_TEST_CRASH).toBe(
      "after_saved_charge",
    );
    expect(() =>
      parseEnv({ ...base, NODE_ENV: "production", BILLING_TEST_CRASH: "after_saved_charge" }),
    ).toThrow(/BILLING_TEST_CRASH: is for tests only/);
    expect(() => parseEnv({ ...base, BILLING_TEST_CRASH: "sometime" })).toThrow(
      /BILLING_TEST_CRASH: must be/,
    );
  });
});
