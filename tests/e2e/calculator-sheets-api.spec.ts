import { expect, test } from "@playwright/test";
import { testSql } from "./support";

// POST /api/v1/sheets/evaluate against the real server: a sheet in, one result per line out, with
// errors on their lines; the same anonymous limit as the other API calls.
const sql = testSql();
test.beforeEach(async () => {
  await sql`delete from rate_limit_events where bucket = 'api-anonymous'`;
});
test.afterAll(async () => {
  await sql`delete from rate_limit_events where bucket = 'api-anonymous'`;
  await sql.end();
});

test("a budget sheet: one result per line, an error on its own line", async ({ request }) => {
  const sheet = [
    "# Monthly",
    "rent = 1,250 EUR",
    "power = 84.20 EUR // estimate",
    "subtotal",
    "3 h + 5 USD",
    "rent / 3 in CHF cash",
    "30 as % of 120",
  ].join("\n");
  const response = await request.post("/api/v1/sheets/evaluate", { data: { sheet, rounding: "half-up" } });
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body.lines).toEqual([
    { line: 1, kind: "heading", text: "Monthly" },
    { line: 2, kind: "value", result: "1250.00 EUR", exact: true, name: "rent", currency: "EUR" },
    { line: 3, kind: "value", result: "84.20 EUR", exact: true, name: "power", currency: "EUR" },
    { line: 4, kind: "value", result: "1334.20 EUR", exact: true, currency: "EUR" },
    {
      line: 5,
      kind: "error",
      error: { code: "type", message: "Cannot add a duration (h) and an amount in USD", column: 5 },
    },
    {
      line: 6,
      kind: "value",
      result: expect.stringMatching(/^\d+\.\d[05] CHF$/),
      exact: false,
      currency: "CHF",
    },
    { line: 7, kind: "value", result: "25%", exact: true },
  ]);
  expect(response.headers()["content-type"]).toContain("application/json");
});

test("a request that is not a sheet is refused as a whole", async ({ request }) => {
  const notText = await request.post("/api/v1/sheets/evaluate", { data: { sheet: 42 } });
  expect(notText.status()).toBe(400);
  expect(await notText.json()).toEqual({
    error: { code: "invalid_request", message: "sheet must be a string" },
  });
  const tooMany = await request.post("/api/v1/sheets/evaluate", { data: { sheet: "1\n".repeat(2_001) } });
  expect(tooMany.status()).toBe(400);
  expect((await tooMany.json()).error.message).toBe("sheet has more than 2,000 lines");
});

test("the OpenAPI document describes the endpoint", async ({ request }) => {
  const doc = await (await request.get("/api/v1/openapi.json")).json();
  const op = doc.paths["/api/v1/sheets/evaluate"].post;
  expect(op.summary).toBe("Evaluate a sheet: one result or error per line");
  expect(op.requestBody.content["application/json"].schema.properties.sheet.type).toBe("string");
  expect(op.responses["429"]).toBeDefined();
});
