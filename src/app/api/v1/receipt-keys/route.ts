import { receiptKeysResponse } from "@/features/checkout/api";
import { apiRoute } from "@/server/api";

export const dynamic = "force-dynamic";

// Public: the receipt keys are published so that anyone can verify a receipt (per-client limited).
export const GET = apiRoute((request: Request) => receiptKeysResponse(request));
