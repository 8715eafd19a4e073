import { verifyReceiptResponse } from "@/features/billing";
import { apiMethods, apiRoute } from "@/server/api";

export const dynamic = "force-dynamic";

// Public: anyone holding a receipt may check it (per-client limited, body capped).
const handle = apiRoute((request: Request) => verifyReceiptResponse(request));

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ POST: handle });
