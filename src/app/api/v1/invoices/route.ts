import { listInvoicesResponse } from "@/features/billing";
import { apiMethods, apiRoute } from "@/server/api";

export const dynamic = "force-dynamic";

const handle = apiRoute((request: Request) => listInvoicesResponse(request));

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: handle });
