import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiDocument } from "./openapi";

// biome-ignore lint/suspicious/noExplicitAny: walking a JSON document in assertions
type Json = any;

// Shapes like the calculator's (server code may not import a feature; the route passes the real ones).
const calculateBody = z.object({
  expression: z.string().max(10_000),
  precision: z.number().int().min(1).max(1000).optional(),
  rounding: z.enum(["half-even", "down"]).optional(),
});
const convertQuery = z.object({
  amount: z.string(),
  from: z.string(),
  to: z.string(),
  rounding: z.enum(["half-even", "down"]).default("half-even"),
});

describe("the OpenAPI document", () => {
  const doc = openApiDocument(
    [
      { method: "post", path: "/api/v1/calculate", summary: "c", quota: true, body: calculateBody },
      { method: "get", path: "/api/v1/convert", summary: "v", quota: true, query: convertQuery },
    ],
    "http://localhost:3000",
  );

  it("is OpenAPI 3.1 with the request body taken from the route's zod schema", () => {
    expect(doc.openapi).toBe("3.1.0");
    const post = (doc.paths["/api/v1/calculate"] as Record<string, Json>).post;
    const schema = post.requestBody.content["application/json"].schema;
    expect(schema.required).toEqual(["expression"]);
    expect(schema.properties.expression).toMatchObject({ type: "string", maxLength: 10_000 });
    expect(schema.properties.precision).toMatchObject({ type: "integer", minimum: 1, maximum: 1000 });
    expect(schema.properties.rounding.enum).toContain("half-even");
  });

  it("lists query parameters with their requiredness, and 401/429 for keyed calls", () => {
    const get = (doc.paths["/api/v1/convert"] as Record<string, Json>).get;
    const names = get.parameters.map((p: { name: string; required: boolean }) => `${p.name}:${p.required}`);
    expect(names).toEqual(["amount:true", "from:true", "to:true", "rounding:false"]);
    expect(Object.keys(get.responses)).toEqual(["200", "400", "401", "429"]);
    expect(get.responses["429"].headers).toHaveProperty("Retry-After");
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("describes path parameters, the session as a second way in, and 404", () => {
    const invoice = z.object({ number: z.string(), total: z.string() });
    const withPath = openApiDocument(
      [
        {
          method: "get",
          path: "/api/v1/invoices/{number}",
          summary: "i",
          quota: true,
          session: true,
          notFound: true,
          pathParams: { number: "INV-2026-000042" },
          response: invoice,
        },
      ],
      "http://localhost:3000",
    );
    const get = (withPath.paths["/api/v1/invoices/{number}"] as Record<string, Json>).get;
    expect(get.parameters).toEqual([
      {
        name: "number",
        in: "path",
        required: true,
        description: "INV-2026-000042",
        schema: { type: "string" },
      },
    ]);
    expect(get.security).toEqual([{ session: [] }, { apiKey: [] }]);
    expect(Object.keys(get.responses)).toEqual(["200", "400", "401", "404", "429"]);
    expect(get.responses["200"].content["application/json"].schema.required).toEqual(["number", "total"]);
    expect(withPath.components.securitySchemes.session).toMatchObject({ type: "apiKey", in: "cookie" });
  });
});
