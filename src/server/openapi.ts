import "server-only";
import { z } from "zod";

/**
 * A small OpenAPI 3.1 generator: each operation names the zod schema its route validates with,
 * and zod 4's `z.toJSONSchema` turns it into the document's JSON Schema (OpenAPI 3.1 uses JSON
 * Schema 2020-12 as it is). Nothing about the request shapes is written by hand.
 */

export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string().describe("A stable, machine-readable code such as rate_limited"),
    message: z.string().describe("A sentence for people"),
  }),
});

export type Operation = {
  method: "get" | "post";
  path: string;
  summary: string;
  /** Counted against the plan when called with a key. */
  quota: boolean;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** Parameters written in the path as `{name}`, each a string. */
  pathParams?: Record<string, string>;
  /** Also answers 401 to a call with neither key nor session (the signed-in web session counts). */
  session?: boolean;
  /** Answers 404 when the named resource is not the caller's (or does not exist). */
  notFound?: boolean;
  response?: z.ZodType;
};

const jsonSchema = (schema: z.ZodType, io: "input" | "output") => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return rest;
};

const rateHeaders = {
  "RateLimit-Limit": { description: "Calls a month on the organization's plan", schema: { type: "integer" } },
  "RateLimit-Remaining": { description: "Calls left this month", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the monthly quota resets", schema: { type: "integer" } },
};

export function openApiDocument(operations: readonly Operation[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const error = { $ref: "#/components/schemas/Error" };
  const errorResponse = (description: string, headers?: Record<string, unknown>) => ({
    description,
    ...(headers ? { headers } : {}),
    content: { "application/json": { schema: error } },
  });
  for (const op of operations) {
    const parameters = op.query
      ? Object.entries((jsonSchema(op.query, "input").properties ?? {}) as Record<string, unknown>).map(
          ([name, schema]) => ({
            name,
            in: "query",
            required: ((jsonSchema(op.query as z.ZodObject, "input").required ?? []) as string[]).includes(
              name,
            ),
            schema,
          }),
        )
      : undefined;
    const inPath = Object.entries(op.pathParams ?? {}).map(([name, description]) => ({
      name,
      in: "path",
      required: true,
      description,
      schema: { type: "string" },
    }));
    const allParameters = [...inPath, ...(parameters ?? [])];
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, unknown>)[op.method] = {
      summary: op.summary,
      ...(op.quota
        ? { security: op.session ? [{ session: [] }, { apiKey: [] }] : [{}, { apiKey: [] }] }
        : {}),
      ...(allParameters.length > 0 ? { parameters: allParameters } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: jsonSchema(op.body, "input") } },
            },
          }
        : {}),
      responses: {
        "200": {
          description: "OK",
          ...(op.quota ? { headers: rateHeaders } : {}),
          content: {
            "application/json": {
              schema: op.response ? jsonSchema(op.response, "output") : { type: "object" },
            },
          },
        },
        "400": errorResponse("Invalid input; `error.code` says which"),
        ...(op.quota
          ? {
              "401": errorResponse(
                op.session
                  ? "Unknown or revoked API key, or neither a key nor a session"
                  : "Unknown or revoked API key",
              ),
              "429": errorResponse(
                "Past the plan's monthly quota or per-second burst, or the anonymous limit",
                {
                  ...rateHeaders,
                  "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } },
                },
              ),
            }
          : {}),
        ...(op.notFound ? { "404": errorResponse("Not found, or not visible to the caller") } : {}),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Abacus API",
      version: "1",
      description:
        "Exact decimal and currency arithmetic. Without a key, calls are limited per client (60 a minute); with `Authorization: Bearer <key>` they count against the organization's plan.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: jsonSchema(apiErrorSchema, "output") },
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An organization API key from the dashboard" },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "better-auth.session_token",
          description:
            "The signed-in web session (its active organization, or any organization it belongs to)",
        },
      },
    },
  };
}
