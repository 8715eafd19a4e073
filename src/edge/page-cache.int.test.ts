import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plans } from "@/core/billing/plans";
import { pricesByCurrency } from "@/features/pricing/prices";
import * as schema from "@/server/db/schema";
import { fxRates } from "@/server/db/schema";
import { loadRatesOrNull, ratesChanged, rateTableVersion } from "@/server/fx";
import { createTestDatabase } from "../../tests/support/db";
import { createPageCache, fxVersionReader, versionMarker } from "./page-cache";

// Issue 17: /pricing is cached per FX version in front of Next.js, per instance. Two instances on
// one database, each with its own pool, FX cache and page cache (as main.ts builds them): a rate
// change made through one is on the other's very next answer.

let t: Awaited<ReturnType<typeof createTestDatabase>>;
const pools: postgres.Sql[] = [];
const servers: Server[] = [];

/** One instance: the page as /pricing renders its prices (same modules), behind the page cache. */
async function instance(url: string) {
  const sql = postgres(url, { max: 3, onnotice: () => {} });
  const versionSql = postgres(url, { max: 1, onnotice: () => {} });
  pools.push(sql, versionSql);
  const db = drizzle(sql, { schema });
  let renders = 0;
  const page = async (req: IncomingMessage, res: ServerResponse) => {
    renders++;
    const table = await loadRatesOrNull(db);
    const code = new URL(req.url ?? "/", "http://x").searchParams.get("currency") ?? "USD";
    const prices = pricesByCurrency(plans, table).find((c) => c.code === code);
    const version = table ? rateTableVersion(table) : undefined;
    res.setHeader("content-type", "text/html");
    res.end(
      `<div ${version === undefined ? "" : versionMarker(version)}>${prices?.prices.pro.monthly}</div>`,
    );
  };
  const cache = createPageCache({
    routes: [{ path: "/pricing", params: ["currency"] }],
    readVersion: fxVersionReader(versionSql),
  });
  const server = createServer(cache.wrap(page));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const price = (currency: string) =>
    new Promise<string>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: `/pricing?currency=${currency}` }, (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve(/>([^<]*)</.exec(body)?.[1] ?? ""));
      });
      req.on("error", reject);
      req.end();
    });
  return { price, renders: () => renders, db };
}

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  for (const server of servers) server.close();
  for (const sql of pools) await sql.end({ timeout: 5 });
  await t.drop();
});

describe("/pricing's page cache on two instances", () => {
  it("answers from the cache until the rates change, then with the new prices on either instance", async () => {
    const a = await instance(t.url);
    const b = await instance(t.url);
    const before = await a.price("EUR");
    expect(before).toMatch(/^€/);
    expect(await b.price("EUR")).toBe(before);
    expect(await a.price("EUR")).toBe(before);
    expect(await b.price("EUR")).toBe(before);
    expect(a.renders()).toBe(1);
    expect(b.renders()).toBe(1);

    // An edit through instance A, recorded with ratesChanged in the same transaction (as the
    // admin edit and the ECB import do): 1 EUR = 2 USD halves the euro price of $12.
    await a.db.transaction(async (tx) => {
      await tx.update(fxRates).set({ rate: "2" }).where(eq(fxRates.currency, "USD"));
      await ratesChanged(tx);
    });
    expect(await b.price("EUR")).toBe("€6");
    expect(await a.price("EUR")).toBe("€6");
    expect(b.renders()).toBe(2);

    // An import through instance B (a new rate for several currencies, one version bump).
    await b.db.transaction(async (tx) => {
      await tx.update(fxRates).set({ rate: "3" }).where(eq(fxRates.currency, "USD"));
      await ratesChanged(tx);
    });
    expect(await a.price("EUR")).toBe("€4");
    expect(await b.price("EUR")).toBe("€4");
    // And cached again from then on.
    expect(await a.price("EUR")).toBe("€4");
    expect(a.renders()).toBe(3);
  });
});
