import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "./db/client";
import { isDatabaseUnavailable, shortErrorLine } from "./db/errors";
import { getEnv } from "./env";

/**
 * What the health check found. The database's own error text (it can name hosts, users, SQL) is not
 * part of it: `/api/health` answers anyone, so the text goes to the server log, once per outage.
 */
export type Health = { status: "ok" | "error"; database: "embedded" | "external" };

/**
 * For error handlers: true when the error says the database is unreachable, or, for libraries that
 * wrap it without a cause (Better Auth answers "FAILED_TO_GET_SESSION"), when a quick check fails.
 */
export async function isOutage(error: unknown): Promise<boolean> {
  if (isDatabaseUnavailable(error)) return true;
  return (await checkHealth(2000)).status !== "ok";
}

// The probe in flight, shared: a burst of health checks (a load balancer, a monitor, a flood) costs
// one query, and every caller still gets the answer of a probe that ended after it asked.
let inFlight: Promise<Health> | undefined;
// Whether the last probe failed: an outage is logged when it starts and when it ends, not per probe.
let failing = false;

export function checkHealth(timeoutMs = 3000): Promise<Health> {
  inFlight ??= probe(timeoutMs).finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

async function probe(timeoutMs: number): Promise<Health> {
  const database = getEnv().DATABASE_MODE;
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("database did not answer in time")), timeoutMs);
    });
    const rows = await Promise.race([getDb().execute(sql`select 1 as ok`), timeout]);
    if (rows[0]?.ok !== 1) throw new Error("unexpected answer from the database");
    if (failing) console.error("health: the database answers again");
    failing = false;
    return { status: "ok", database };
  } catch (error) {
    if (!failing) console.error(`health: the database is not answering: ${shortErrorLine(error)}`);
    failing = true;
    return { status: "error", database };
  } finally {
    clearTimeout(timer);
  }
}
