/**
 * `npm run billing:run -- --at <ISO instant>`: runs every billing job due at that instant once and
 * prints a one-line JSON summary: `renewed` periods paid (by a renewal or a retry), `failed`
 * renewals declined and left past due for a retry, `retried` retries made (whatever their outcome),
 * `downgraded` subscriptions that ended on Free (unpaid after their last attempt, a hard decline, no
 * card, or cancelled at period end). Refuses unless the offline test provider is the active one.
 *
 * `--stats` (for `bench/renewals.mjs`) adds `stats` to the summary: the statements this process sent
 * to PostgreSQL, the transactions it committed or rolled back, and the CPU milliseconds of the run
 * itself (process start and module loading excluded).
 */
import { parseArgs } from "node:util";
import { ClockRefused, runTestClock } from "@/features/billing/server/clock";
import { getConnection } from "@/server/db/client";

const { values } = parseArgs({
  options: { at: { type: "string" }, stats: { type: "boolean", default: false } },
});

/** Counts every statement sent through the pool, and through each transaction's connection. */
function countStatements(sql: ReturnType<typeof getConnection>["sql"]) {
  const counts = { statements: 0, transactions: 0 };
  const wrap = (target: { unsafe: (...args: never[]) => unknown }) => {
    const unsafe = target.unsafe;
    target.unsafe = ((...args: never[]) => {
      counts.statements += 1;
      return unsafe.apply(target, args);
    }) as typeof target.unsafe;
  };
  wrap(sql as unknown as { unsafe: (...args: never[]) => unknown });
  const begin = sql.begin;
  sql.begin = ((...args: unknown[]) => {
    counts.transactions += 1;
    // The callback is last; its connection's statements are counted too (its COMMIT is not sent
    // through `unsafe`: one more per transaction).
    const fn = args.at(-1) as (tx: { unsafe: (...a: never[]) => unknown }) => unknown;
    args[args.length - 1] = (tx: { unsafe: (...a: never[]) => unknown }) => {
      wrap(tx);
      return fn(tx);
    };
    return (begin as (...a: unknown[]) => unknown).apply(sql, args);
  }) as typeof sql.begin;
  return counts;
}
let code = 0;
try {
  if (!values.at) throw new ClockRefused("Usage: npm run billing:run -- --at <ISO instant>");
  const counts = values.stats ? countStatements(getConnection().sql) : null;
  const cpuBefore = process.cpuUsage();
  const summary = await runTestClock(new Date(values.at));
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    JSON.stringify({
      at: summary.at,
      due: summary.due,
      renewed: summary.renewed,
      failed: summary.failed,
      retried: summary.retried,
      downgraded: summary.downgraded + summary.ended,
      pending: summary.pending,
      ...(counts
        ? {
            stats: {
              statements: counts.statements + counts.transactions,
              transactions: counts.transactions,
              cpuMs: Math.round((cpu.user + cpu.system) / 1000),
            },
          }
        : {}),
    }),
  );
} catch (error) {
  if (!(error instanceof ClockRefused)) throw error;
  console.error(error.message);
  code = 2;
} finally {
  await getConnection().sql.end({ timeout: 5 });
}
process.exitCode = code;
