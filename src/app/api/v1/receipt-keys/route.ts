import { receiptKeysResponse } from "@/features/billing";
import { apiMethods, apiRoute } from "@/server/api";

export const dynamic = "force-dynamic";

// Public: the receipt keys are published so that anyone can verify a receipt (per-client limited).
const handle = apiRoute((request: Request) => receiptKeysResponse(request));

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: handle });
