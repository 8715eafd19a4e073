import { apiMethods, apiRoute } from "@/server/api";
import { handleAuthHttp } from "@/server/auth/hardening";
import { authHttpHandler } from "@/server/auth/http";

export const dynamic = "force-dynamic";

// Bodies are capped before Better Auth parses them and session tokens are stripped from answers
// (server/auth/hardening.ts); a database outage answers 503 in the API's error shape. The handler
// is built once per process (server/auth/http.ts), not once per request.
const handle = apiRoute(async (request: Request) => handleAuthHttp(request, await authHttpHandler()));

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: handle, POST: handle });
