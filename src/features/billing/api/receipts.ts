import "server-only";
import { BODY_CAPS } from "@/core/http/edge-contract";
import { firstDuplicateKey } from "@/core/receipts/duplicate-keys";
import { duplicateKeyMessage, verifyReceipt } from "@/core/receipts/receipt";
import { apiError, limitAnonymousApi } from "@/server/api";
import { getDb } from "@/server/db/client";
import { BodyTooLarge, readBodyCapped } from "@/server/read-body";
import { verifyReceiptBody } from "../schemas";
import { jwks, publishedKeys, toReceiptKeys } from "../server/receipt-keys";

const MAX_VERIFY_BYTES = BODY_CAPS.receiptVerify;
const noStore = { "Cache-Control": "no-store" };

/** GET /api/v1/receipt-keys: the JWK set (with PEMs), or `?kid=…&format=pem` for one key's PEM. */
export async function receiptKeysResponse(request: Request): Promise<Response> {
  const limited = await limitAnonymousApi(request);
  if (limited) return limited;
  const url = new URL(request.url);
  const keys = await publishedKeys(getDb());
  if (url.searchParams.get("format") === "pem") {
    const kid = url.searchParams.get("kid");
    const key = keys.find((k) => k.kid === kid);
    if (!key) return apiError(404, "unknown_key", "No receipt key has that kid.");
    return new Response(key.publicKeyPem, {
      headers: { "Content-Type": "application/x-pem-file", "Cache-Control": "public, max-age=300" },
    });
  }
  return Response.json(jwks(keys), { headers: { "Cache-Control": "public, max-age=300" } });
}

/** POST /api/v1/receipts/verify: `{ receipt, signature }` → `{ valid, kid }` or `{ valid: false, code, message }`. */
export async function verifyReceiptResponse(request: Request): Promise<Response> {
  const limited = await limitAnonymousApi(request);
  if (limited) return limited;
  let text: string;
  let json: unknown;
  try {
    text = new TextDecoder().decode(await readBodyCapped(request, MAX_VERIFY_BYTES));
    json = JSON.parse(text);
  } catch (error) {
    if (error instanceof BodyTooLarge)
      return apiError(413, "too_large", "The request body is larger than 32 KB.");
    return apiError(
      400,
      "invalid_json",
      'The request body must be JSON: {"receipt": {...}, "signature": "..."}',
    );
  }
  // JSON.parse keeps the last of a repeated key: a receipt object sent with `"total"` twice would be
  // checked with one value while its sender (or a reader) sees the other.
  const repeated = firstDuplicateKey(text);
  if (repeated?.path[0] === "receipt") {
    const message = duplicateKeyMessage(repeated.key);
    return Response.json({ valid: false, code: "malformed", message }, { headers: noStore });
  }
  if (repeated) return apiError(400, "invalid_json", duplicateKeyMessage(repeated.key, "The request body"));
  const parsed = verifyReceiptBody.safeParse(json);
  if (!parsed.success)
    return apiError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");
  const keys = toReceiptKeys(await publishedKeys(getDb()));
  const outcome = verifyReceipt(parsed.data.receipt, parsed.data.signature, keys);
  const body = outcome.valid
    ? { valid: true, kid: outcome.kid, receiptNumber: outcome.receipt.receiptNumber }
    : { valid: false, code: outcome.code, message: outcome.message };
  return Response.json(body, { headers: noStore });
}
