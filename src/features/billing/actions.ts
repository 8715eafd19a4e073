"use server";

import { z } from "zod";
import { type ActionResult, action } from "@/server/action";
import { MANAGER_ROLES } from "@/server/authz";
import { cancelAtPeriodEnd, keepPlan, scheduleDowngrade } from "@/server/billing/subscription";
import { getDb } from "@/server/db/client";

const manage = { kind: "org", roles: MANAGER_ROLES } as const;

export const cancelPlanAction = action(manage, z.object({}), async ({ viewer }): Promise<ActionResult> => {
  const result = await cancelAtPeriodEnd(getDb(), viewer.org.id);
  return result.ok
    ? { ok: true, data: undefined, message: "The plan will end with the current period." }
    : { ok: false, error: result.error };
});

export const downgradePlanAction = action(
  manage,
  z.object({ plan: z.enum(["pro"], "Choose the plan to move to.") }),
  async ({ viewer, input }): Promise<ActionResult> => {
    const result = await scheduleDowngrade(getDb(), viewer.org.id, input.plan);
    return result.ok
      ? { ok: true, data: undefined, message: "Pro starts when the current period ends." }
      : { ok: false, error: result.error };
  },
);

export const keepPlanAction = action(manage, z.object({}), async ({ viewer }): Promise<ActionResult> => {
  const result = await keepPlan(getDb(), viewer.org.id);
  return result.ok
    ? { ok: true, data: undefined, message: "The plan continues as it is." }
    : { ok: false, error: result.error };
});
