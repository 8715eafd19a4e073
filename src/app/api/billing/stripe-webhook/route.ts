import { handleStripeWebhook } from "@/features/billing";
import { apiMethods, apiRoute } from "@/server/api";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

// Authorized by the event's signature (Stripe's webhook signing secret), not by a session. A
// database outage answers 503 in the API's error shape, which Stripe retries.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute((request: Request) => handleStripeWebhook(getDb(), request)),
});
