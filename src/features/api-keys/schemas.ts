import { z } from "zod";

export const createApiKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the key a name, e.g. the system that will use it.")
    .max(80, "At most 80 characters."),
});
export const apiKeyIdSchema = z.object({ id: z.uuid("Unknown key.") });

/** Keys an organization may hold at once (an item cap, not a plan feature). */
export const MAX_ACTIVE_KEYS = 20;
