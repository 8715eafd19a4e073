import { type APIResponse, expect, test } from "@playwright/test";
import { testSql } from "./support";

// One client address for the whole suite: these run one after another on a clean limit.
test.describe.configure({ mode: "serial" });
const sql = testSql();
test.beforeEach(async () => {
  await sql`delete from rate_limit_events where bucket = 'api-anonymous'`;
});
test.afterAll(async () => {
  await sql`delete from rate_limit_events where bucket = 'api-anonymous'`;
  await sql.end();
});

test("GET /api/v1/rates lists the FX table as decimal strings with its date", async ({ request }) => {
  const response = await request.get("/api/v1/rates");
  expect(response.status()).toBe(200);
  const body = await response.json();
  const rows = await sql<
    { currency: string; rate: string }[]
  >`select currency, rate::text as rate from fx_rates`;
  expect(body.base).toBe("EUR");
  expect(body.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(body.rates).toEqual(Object.fromEntries(rows.map((r) => [r.currency, r.rate])));
});

test("POST /api/v1/calculate answers exact results and positioned errors", async ({ request }) => {
  const ok = await request.post("/api/v1/calculate", { data: { expression: "0.1 + 0.2" } });
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toMatchObject({ result: "0.3" });

  const precise = await request.post("/api/v1/calculate", {
    data: { expression: "1 / 7", precision: 30, rounding: "down" },
  });
  expect((await precise.json()).result).toBe("0.142857142857142857142857142857");

  const bad = await request.post("/api/v1/calculate", { data: { expression: "(1 + 2))" } });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({
    error: { code: "syntax", message: expect.stringContaining("Unexpected ')'"), column: 8 },
  });

  const notJson = await request.post("/api/v1/calculate", {
    data: "expression=1+1",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  expect(notJson.status()).toBe(400);
  expect((await notJson.json()).error.code).toBe("invalid_json");

  const badPrecision = await request.post("/api/v1/calculate", {
    data: { expression: "1", precision: 5000 },
  });
  expect(await badPrecision.json()).toEqual({
    error: { code: "invalid_request", message: "precision must be a whole number from 1 to 1000" },
  });
});

test("GET /api/v1/convert keeps the target's minor-unit digits", async ({ request }) => {
  const [usd, jpy] = await sql<{ rate: string }[]>`select rate::text as rate from fx_rates
    where currency in ('USD', 'JPY') order by currency desc`;
  const response = await request.get("/api/v1/convert?amount=100&from=USD&to=JPY");
  expect(response.status()).toBe(200);
  const body = await response.json();
  // 100 × JPY/USD rounded half-even to whole yen, computed here with integers.
  const scale = 10n ** 12n;
  const toUnits = (rate: string) => {
    const [whole = "0", frac = ""] = rate.split(".");
    return BigInt(whole) * scale + BigInt(frac.padEnd(12, "0"));
  };
  const num = 100n * toUnits(jpy?.rate ?? "0");
  const den = toUnits(usd?.rate ?? "1");
  const q = num / den;
  const r = num % den;
  const expected = 2n * r > den || (2n * r === den && q % 2n === 1n) ? q + 1n : q;
  expect(body).toMatchObject({ amount: expected.toString(), currency: "JPY" });
  expect(body.ratesDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

  const eur = await (await request.get("/api/v1/convert?amount=10&from=EUR&to=USD")).json();
  expect(eur.amount).toMatch(/^\d+\.\d{2}$/);

  const bad = await request.get("/api/v1/convert?amount=1.234&from=USD&to=EUR");
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toEqual({
    code: "too_many_decimals",
    message: "USD has 2 decimal places",
  });
  const unknown = await request.get("/api/v1/convert?amount=1&from=USD&to=XYZ");
  expect((await unknown.json()).error.message).toBe("Unknown currency XYZ");
  const missing = await request.get("/api/v1/convert?from=USD&to=EUR");
  expect((await missing.json()).error.code).toBe("invalid_request");
});

test("anonymous API calls are limited per client (429 with Retry-After)", async ({ request }) => {
  let limited: APIResponse | undefined;
  for (let i = 0; i < 61; i++) {
    const response = await request.get("/api/v1/convert?amount=1&from=EUR&to=USD");
    if (response.status() === 429) {
      limited = response;
      break;
    }
    expect(response.status()).toBe(200);
  }
  if (!limited) throw new Error("61 requests in a minute were not limited");
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
  expect((await limited.json()).error.code).toBe("rate_limited");
});
