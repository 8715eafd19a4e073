import { invoiceResponse } from "@/features/billing";
import { apiMethods, apiRoute } from "@/server/api";

export const dynamic = "force-dynamic";

const handle = apiRoute(async (request: Request, context: { params: Promise<{ number: string }> }) =>
  invoiceResponse(request, (await context.params).number),
);

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: handle });
