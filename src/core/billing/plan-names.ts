/**
 * The plans' names, as people read them. Kept apart from `plans.ts` (which needs decimal.js) so the
 * crypto workbench's receipt check can name a plan without loading it.
 */
export const PLAN_NAMES = { free: "Free", pro: "Pro", team: "Team" } as const;

/** "Pro (monthly)": a plan and interval as shown on receipts; an unknown id is shown as it is. */
export function planLabel(plan: string, interval: string): string {
  const name = (PLAN_NAMES as Record<string, string>)[plan] ?? plan;
  return `${name} (${interval})`;
}
