import { calculateBody, convertQuery, sheetBody, sheetResponse } from "@/features/calculator/api-schemas";
import { invoiceListQuery, invoiceListSchema, invoiceSchema, verifyReceiptBody } from "@/features/billing";
import {apiMethods, apiRoute} from "@/server/api";
import { appOrigin } from "@/server/auth";
import { openApiDocument } from "@/server/openapi";

export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 description of /api/v1, generated from the schemas the routes validate with. */
const handle = apiRoute(() => {
  const document = openApiDocument(
    [
      { method: "post", path: "/api/v1/calculate", summary: "Evaluate an expression exactly", quota: true, body: calculateBody },
      {
        method: "post",
        path: "/api/v1/sheets/evaluate",
        summary: "Evaluate a sheet: one result or error per line",
        quota: true,
        body: sheetBody,
        response: sheetResponse,
      },
      { method: "get", path: "/api/v1/convert", summary: "Convert an amount between currencies", quota: true, query: convertQuery },
      { method: "get", path: "/api/v1/rates", summary: "The instance's FX rates (units per 1 EUR)", quota: false },
      { method: "get", path: "/api/v1/receipt-keys", summary: "The receipt signing keys (JWK set and PEM)", quota: false },
      {
        method: "post",
        path: "/api/v1/receipts/verify",
        summary: "Verify a signed receipt against the published keys",
        quota: false,
        body: verifyReceiptBody,
      },
      {
        method: "get",
        path: "/api/v1/invoices",
        summary: "The organization's invoices, newest first, a page at a time",
        quota: true,
        session: true,
        query: invoiceListQuery,
        response: invoiceListSchema,
      },
      {
        method: "get",
        path: "/api/v1/invoices/{number}",
        summary: "One invoice: lines and totals as exact decimals, and its signed receipt",
        quota: true,
        session: true,
        notFound: true,
        pathParams: { number: "The invoice number, e.g. INV-2026-000042" },
        response: invoiceSchema,
      },
    ],
    appOrigin(),
  );
  return Response.json(document, { headers: { "Cache-Control": "public, max-age=300" } });
});

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: handle });
