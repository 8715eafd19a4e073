import { toNextJsHandler } from "better-auth/next-js";
import { apiRoute } from "@/server/api";
import { getAuth } from "@/server/auth";
import { handleAuthHttp } from "@/server/auth/hardening";

export const dynamic = "force-dynamic";

// Bodies are capped before Better Auth parses them and session tokens are stripped from answers
// (server/auth/hardening.ts); a database outage answers 503 in the API's error shape.
const handler = apiRoute((request: Request) => handleAuthHttp(request, toNextJsHandler(getAuth()).POST));
const getHandler = apiRoute((request: Request) => handleAuthHttp(request, toNextJsHandler(getAuth()).GET));

export { getHandler as GET, handler as POST };
