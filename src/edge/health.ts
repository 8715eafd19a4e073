/**
 * Liveness and readiness, answered by the server itself (never by Next.js, never behind the
 * per-client gate), for load balancers and orchestrators:
 * - `/api/health/live`: the process answers (no database): 200 while it runs, also while draining;
 * - `/api/health/ready`: 200 only when the database answers, every migration this build ships is
 *   applied, and the instance is not draining (after SIGTERM); 503 otherwise, with the reason.
 * `/api/health` (the app's own, a real query) stays as it was.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { Sql } from "postgres";

export const LIVE_PATH = "/api/health/live";
export const READY_PATH = "/api/health/ready";

export type Readiness =
  | { status: "ready" }
  | { status: "draining" }
  | { status: "migrating"; applied: number; expected: number }
  | { status: "unavailable" };

/** The `when` of the newest migration in drizzle's journal (what the migrator records as created_at). */
export function latestMigration(folder = path.resolve("drizzle")): number {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta/_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(0, ...journal.entries.map((entry) => entry.when));
}

export interface Health {
  /** Answers `req` when it asks for liveness or readiness; false when it is another request. */
  answer(req: IncomingMessage, res: ServerResponse): boolean;
  readiness(): Promise<Readiness>;
  /** From now on the instance is not ready (it is shutting down). */
  drain(): void;
  readonly draining: boolean;
}

const MIGRATIONS_QUERY_TIMEOUT_MS = 2_000;

export function createHealth({
  sql,
  expectedMigration,
  headers = {},
}: {
  /** A connection of the server's own (never the app's pool: readiness must not queue behind it). */
  sql: Sql | undefined;
  expectedMigration: number;
  /** Headers every answer carries (the security headers). */
  headers?: Record<string, string>;
}): Health {
  let draining = false;

  async function readiness(): Promise<Readiness> {
    if (draining) return { status: "draining" };
    if (!sql) return { status: "unavailable" };
    try {
      const query = sql`select coalesce(max(created_at), 0)::bigint as latest from drizzle.__drizzle_migrations`;
      const timeout = new Promise<never>((_, reject) => {
        setTimeout(() => reject(new Error("timeout")), MIGRATIONS_QUERY_TIMEOUT_MS).unref();
      });
      const rows = await Promise.race([query, timeout]);
      const applied = Number(rows[0]?.latest ?? 0);
      if (applied < expectedMigration) return { status: "migrating", applied, expected: expectedMigration };
      return draining ? { status: "draining" } : { status: "ready" };
    } catch {
      return { status: "unavailable" };
    }
  }

  function send(res: ServerResponse, status: number, body: unknown, head: boolean) {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      ...headers,
      "content-type": "application/json",
      "cache-control": "no-store",
      "content-length": Buffer.byteLength(text),
    });
    res.end(head ? undefined : text);
  }

  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
    readiness,
    answer(req, res) {
      const url = req.url ?? "";
      const pathname = url.split("?", 1)[0];
      if (pathname !== LIVE_PATH && pathname !== READY_PATH) return false;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("allow", "GET, HEAD");
        send(res, 405, { error: { code: "method_not_allowed", message: "Use GET or HEAD." } }, false);
        return true;
      }
      const head = req.method === "HEAD";
      if (pathname === LIVE_PATH) {
        send(res, 200, { status: draining ? "draining" : "ok" }, head);
        return true;
      }
      readiness().then(
        (state) => send(res, state.status === "ready" ? 200 : 503, state, head),
        () => send(res, 503, { status: "unavailable" }, head),
      );
      return true;
    },
  };
}
