import { clientSubject } from "@/server/client-identity";
import { getDb } from "@/server/db/client";
import { getMonitoringConfig } from "@/server/monitoring";
import { handleTunnel } from "@/server/monitoring/tunnel";
import { limitRequest } from "@/server/rate-limit";

// The same-origin tunnel of the browser SDK (`/monitoring?o=…&p=…[&r=…]`); the logic lives in
// server/monitoring/tunnel.ts. Only POST is exported, so Next.js answers 405 to anything else.
// src/proxy.ts does not match this path: the tunnel needs no session.
export const dynamic = "force-dynamic";

const REPORTS_PER_CLIENT = { bucket: "monitoring", limit: 300, windowSeconds: 600 };

export async function POST(request: Request) {
  const db = getDb();
  return handleTunnel(request, {
    config: getMonitoringConfig(),
    db,
    // Every stored item counts against the client's limit, not each envelope once; an envelope past
    // the item cap uses up the whole window's allowance.
    allowStore: async (rows) => {
      const subject = await clientSubject();
      const cost = rows === "all" ? REPORTS_PER_CLIENT.limit : rows;
      const decision = await limitRequest(db, REPORTS_PER_CLIENT, subject, cost);
      return decision.allowed || decision;
    },
  });
}
