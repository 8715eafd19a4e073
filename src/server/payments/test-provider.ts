import "server-only";
import { randomUUID } from "node:crypto";
import { closeSync, fsyncSync, openSync, readFileSync, readSync, unlinkSync, writeSync } from "node:fs";
import {
  DECLINE_REASONS,
  SLOW_APPROVAL_MS,
  TEST_CARDS,
  type TestCardOutcome,
} from "@/core/billing/test-cards";
import type {
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  RefundRequest,
  RefundResult,
  SaveCardRequest,
  SaveCardResult,
  SavedCard,
  SavedChargeRequest,
} from "./provider";

const TOKEN_PREFIX = "test_pm_";

/**
 * A test card's token: what later charges of it do, plus a random part. It names the outcome, never
 * the number, so any process (another app instance, the billing clock) can charge it.
 */
function tokenFor(outcome: TestCardOutcome): string {
  const later = outcome === "approve_then_decline" ? "decline" : "approve";
  return `${TOKEN_PREFIX}${later}_${randomUUID().replace(/-/g, "")}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One line of the test provider's record: the first answer given under one idempotency key. */
export interface LedgerEntry {
  op: "charge" | "saved" | "refund";
  key: string;
  /** The amount asked for, in minor units (a decimal string: JSON has no bigint). */
  amount: string;
  currency: string;
  /** What every later call with this key answers. */
  result: ChargeResult | RefundResult;
  pid: number;
  /** Present on the line a retried key wrote: it answered `result` again and moved no money. */
  replay?: true;
}

/**
 * Where the provider keeps its answers by idempotency key. In memory by default; with a ledger file
 * (`TEST_PROVIDER_LEDGER`) the record outlives the process and is shared by every process using
 * the same file, as a real provider's is: an append-only JSON-lines file, each line written with
 * fsync under an exclusive lock file, so a retry from another process (or after a crash) gets the
 * first answer instead of a second charge.
 */
interface AnswerStore {
  /** The first entry recorded for (op, key), recording `entry` if there is none. */
  once(entry: LedgerEntry): Promise<{ first: LedgerEntry; replayed: boolean }>;
}

function memoryStore(): AnswerStore {
  const answers = new Map<string, LedgerEntry>();
  return {
    async once(entry) {
      const id = `${entry.op}:${entry.key}`;
      const first = answers.get(id);
      if (first) return { first, replayed: true };
      answers.set(id, entry);
      return { first: entry, replayed: false };
    },
  };
}

const LOCK_WAIT_MS = 10_000;

/** Reads the ledger file's complete lines: the provider's own record, for tests and checks. */
export function readLedger(path: string): LedgerEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const end = text.lastIndexOf("\n");
  return end < 0
    ? []
    : text
        .slice(0, end)
        .split("\n")
        .map((line) => JSON.parse(line) as LedgerEntry);
}

function ledgerStore(path: string): AnswerStore {
  const lockPath = `${path}.lock`;
  const answers = new Map<string, LedgerEntry>();
  let offset = 0;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  };
  const lock = async () => {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const fd = openSync(lockPath, "wx");
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      // A holder killed while it held the lock (never between writing and fsync: it holds the lock
      // only while it reads and appends) leaves the file behind; its pid tells.
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(lockPath, "utf8"));
      } catch {}
      if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
        try {
          unlinkSync(lockPath);
        } catch {}
        continue;
      }
      if (Date.now() > deadline) throw new Error(`The test provider's ledger lock ${lockPath} is held`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  /** Reads the lines other processes appended since the last read. */
  const catchUp = (fd: number) => {
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(64 * 1024);
    let position = offset;
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, position);
      if (n <= 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
      position += n;
    }
    const text = Buffer.concat(chunks).toString("utf8");
    const end = text.lastIndexOf("\n");
    if (end < 0) return;
    for (const line of text.slice(0, end).split("\n")) {
      const entry = JSON.parse(line) as LedgerEntry;
      const id = `${entry.op}:${entry.key}`;
      if (!entry.replay && !answers.has(id)) answers.set(id, entry);
    }
    offset += Buffer.byteLength(text.slice(0, end + 1));
  };
  return {
    async once(entry) {
      await lock();
      try {
        const fd = openSync(path, "a+");
        try {
          catchUp(fd);
          const id = `${entry.op}:${entry.key}`;
          const first = answers.get(id);
          const line = first ? { ...first, pid: process.pid, replay: true as const } : entry;
          writeSync(fd, `${JSON.stringify(line)}\n`);
          fsyncSync(fd);
          catchUp(fd);
          if (first) return { first, replayed: true };
          answers.set(id, entry);
          return { first: entry, replayed: false };
        } finally {
          closeSync(fd);
        }
      } finally {
        unlinkSync(lockPath);
      }
    },
  };
}

/**
 * The built-in provider: works offline and charges nothing. Its outcome depends only on the test card
 * (see `TEST_CARDS` and the docs); any other card is declined. Like a real provider it honours
 * idempotency keys: a call with a key it has answered before gets the first answer again (the timeout
 * card's charge went through, so its retry answers "succeeded") and moves no money. With `ledgerPath`
 * that record is a file shared by every process (see `ledgerStore`).
 */
export function createTestProvider(options: { slowMs?: number; ledgerPath?: string } = {}): PaymentProvider {
  const slowMs = options.slowMs ?? SLOW_APPROVAL_MS;
  const store = options.ledgerPath ? ledgerStore(options.ledgerPath) : memoryStore();
  /** Records `result` under the key unless the key has an answer already; returns what to answer. */
  async function answer<R extends ChargeResult | RefundResult>(
    op: LedgerEntry["op"],
    key: string,
    amount: { amount: bigint; currency: string },
    result: R,
    firstAnswer: R = result,
  ): Promise<R> {
    const { first, replayed } = await store.once({
      op,
      key,
      amount: amount.amount.toString(),
      currency: amount.currency,
      result,
      pid: process.pid,
    });
    return replayed ? (first.result as R) : firstAnswer;
  }
  return {
    id: "test",
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const card = TEST_CARDS.find((c) => c.number === request.card.number);
      const reference = `test_ch_${randomUUID().replace(/-/g, "")}`;
      const record = (result: ChargeResult, firstAnswer?: ChargeResult) =>
        answer("charge", request.idempotencyKey, request.amount, result, firstAnswer);
      const decline = (code: string): Promise<ChargeResult> =>
        record({ status: "declined", code, reason: DECLINE_REASONS[code] ?? code, reference });
      if (!card) return decline("unknown_test_card");
      const saved: SavedCard = {
        customerReference: null,
        methodReference: tokenFor(card.outcome),
        brand: request.card.brand,
        last4: request.card.last4,
        expMonth: request.card.expMonth,
        expYear: request.card.expYear,
      };
      switch (card.outcome) {
        case "approve":
        case "approve_then_decline":
          return record({ status: "succeeded", reference, saved });
        case "slow_approve":
          await sleep(slowMs);
          return record({ status: "succeeded", reference, saved });
        case "decline":
          return decline("card_declined");
        case "insufficient_funds":
          return decline("insufficient_funds");
        case "expired_card":
          return decline("expired_card");
        case "timeout":
          // The charge goes through but its answer is lost: a retry with the key learns it succeeded.
          return record(
            { status: "succeeded", reference, saved },
            { status: "unknown", reason: "The test provider's answer was lost (test card)." },
          );
      }
    },
    async chargeSaved(request: SavedChargeRequest): Promise<ChargeResult> {
      const token = request.card.methodReference;
      const reference = `test_ch_${randomUUID().replace(/-/g, "")}`;
      let result: ChargeResult;
      if (token.startsWith(`${TOKEN_PREFIX}approve_`)) result = { status: "succeeded", reference };
      else if (token.startsWith(`${TOKEN_PREFIX}decline_`)) {
        result = {
          status: "declined",
          code: "card_declined",
          reason: DECLINE_REASONS.card_declined ?? "",
          reference,
        };
      } else {
        result = {
          status: "declined",
          code: "unknown_test_card",
          reason: DECLINE_REASONS.unknown_test_card ?? "",
        };
      }
      return answer("saved", request.idempotencyKey, request.amount, result);
    },
    // Saves a test card without charging it: a card whose first charge is declined is refused here.
    async saveCard(request: SaveCardRequest): Promise<SaveCardResult> {
      const card = TEST_CARDS.find((c) => c.number === request.card.number);
      const refuse = (code: string): SaveCardResult => ({
        status: "declined",
        code,
        reason: DECLINE_REASONS[code] ?? code,
      });
      if (!card) return refuse("unknown_test_card");
      if (card.outcome === "decline") return refuse("card_declined");
      if (card.outcome === "insufficient_funds") return refuse("insufficient_funds");
      if (card.outcome === "expired_card") return refuse("expired_card");
      if (card.outcome === "timeout") {
        return { status: "unknown", reason: "The test provider's answer was lost (test card)." };
      }
      const { brand, last4, expMonth, expYear } = request.card;
      const methodReference = tokenFor(card.outcome);
      return {
        status: "saved",
        saved: { customerReference: null, methodReference, brand, last4, expMonth, expYear },
      };
    },
    // Refunds a test charge (a `test_ch_` reference) and nothing else; the same key answers the same.
    async refund(request: RefundRequest): Promise<RefundResult> {
      const result: RefundResult =
        request.chargeReference.startsWith("test_ch_") && request.amount.amount > 0n
          ? { status: "succeeded", reference: `test_re_${randomUUID().replace(/-/g, "")}` }
          : { status: "failed", code: "charge_not_found", reason: "The test provider made no such charge." };
      return answer("refund", request.idempotencyKey, request.amount, result);
    },
  };
}
