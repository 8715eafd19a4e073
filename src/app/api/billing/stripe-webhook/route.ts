import { handleStripeWebhook } from "@/server/billing/stripe-webhook";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

// Authorized by the event's signature (Stripe's webhook signing secret), not by a session.
export async function POST(request: Request) {
  return handleStripeWebhook(getDb(), request);
}
