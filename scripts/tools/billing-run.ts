/**
 * `npm run billing:run -- --at <ISO instant>`: runs every billing job due at that instant once and
 * prints a one-line JSON summary: `renewed` periods paid (by a renewal or a retry), `failed`
 * renewals declined and left past due for a retry, `retried` retries made (whatever their outcome),
 * `downgraded` subscriptions that ended on Free (unpaid after their last attempt, a hard decline, no
 * card, or cancelled at period end). Refuses unless the offline test provider is the active one.
 */
import { parseArgs } from "node:util";
import { ClockRefused, runTestClock } from "@/features/billing/server/clock";
import { getConnection } from "@/server/db/client";

const { values } = parseArgs({ options: { at: { type: "string" } } });
let code = 0;
try {
  if (!values.at) throw new ClockRefused("Usage: npm run billing:run -- --at <ISO instant>");
  const summary = await runTestClock(new Date(values.at));
  console.log(
    JSON.stringify({
      at: summary.at,
      due: summary.due,
      renewed: summary.renewed,
      failed: summary.failed,
      retried: summary.retried,
      downgraded: summary.downgraded + summary.ended,
      pending: summary.pending,
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
