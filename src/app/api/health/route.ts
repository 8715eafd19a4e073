import { apiMethods } from "@/server/api";
import { checkHealth } from "@/server/health";

export const dynamic = "force-dynamic";

async function answerHealth() {
  const health = await checkHealth();
  // A 503 keeps the API's error shape next to the health fields.
  const body =
    health.status === "ok"
      ? health
      : { ...health, error: { code: "service_unavailable", message: "The database is not answering." } };
  return Response.json(body, {
    status: health.status === "ok" ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({ GET: answerHealth });
