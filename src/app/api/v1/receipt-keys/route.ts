import { receiptKeysResponse } from "@/features/checkout/api";

export const dynamic = "force-dynamic";

// Public: the receipt keys are published so that anyone can verify a receipt (per-client limited).
export async function GET(request: Request) {
  return receiptKeysResponse(request);
}
