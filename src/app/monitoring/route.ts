import { clientSubject } from "@/server/client-identity";
import { getDb } from "@/server/db/client";
import { getMonitoringConfig } from "@/server/monitoring";
import { handleTunnel, limitBytesPerClient, limitReportsPerClient } from "@/server/monitoring/tunnel";

// The same-origin tunnel of the browser SDK (`/monitoring?o=…&p=…[&r=…]`); the logic lives in
// server/monitoring/tunnel.ts. Only POST is exported, so Next.js answers 405 to anything else.
// src/proxy.ts does not match this path: the tunnel needs no session.
export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  const db = getDb();
  // Every stored row or forwarded item counts against the client's limit (every envelope at least
  // once), and every envelope's bytes against its byte limit.
  return handleTunnel(request, {
    config: getMonitoringConfig(),
    db,
    allowReports: limitReportsPerClient(db, clientSubject),
    allowBytes: limitBytesPerClient(db, clientSubject),
  });
}
