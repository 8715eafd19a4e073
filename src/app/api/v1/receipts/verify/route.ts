import { verifyReceiptResponse } from "@/features/checkout/api";
import { apiRoute } from "@/server/api";

export const dynamic = "force-dynamic";

// Public: anyone holding a receipt may check it (per-client limited, body capped).
export const POST = apiRoute((request: Request) => verifyReceiptResponse(request));
