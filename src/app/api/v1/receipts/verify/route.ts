import { verifyReceiptResponse } from "@/features/checkout/api";

export const dynamic = "force-dynamic";

// Public: anyone holding a receipt may check it (per-client limited, body capped).
export async function POST(request: Request) {
  return verifyReceiptResponse(request);
}
