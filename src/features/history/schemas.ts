import { z } from "zod";
import { LIMITS } from "@/core/decimal";
import { ROUNDING_MODES } from "@/core/rounding";
import { SAVE_LIMITS } from "./limits";

export { SAVE_LIMITS };

export const saveCalculationSchema = z.object({
  mode: z.enum(["decimal", "currency"]),
  expression: z.string().trim().min(1, "Nothing to save yet.").max(SAVE_LIMITS.expression),
  result: z.string().trim().min(1, "Nothing to save yet.").max(SAVE_LIMITS.result),
  precision: z.number().int().min(LIMITS.minPrecision).max(LIMITS.maxPrecision),
  rounding: z.enum(ROUNDING_MODES),
  currencies: z
    .array(z.string().regex(/^[A-Z]{3}$/, "A currency is a three-letter code."))
    .max(SAVE_LIMITS.currencies, `At most ${SAVE_LIMITS.currencies} currencies.`)
    .default([]),
  note: z
    .string()
    .trim()
    .max(SAVE_LIMITS.note, `A note has at most ${SAVE_LIMITS.note} characters.`)
    .default(""),
});
export type SaveCalculationInput = z.infer<typeof saveCalculationSchema>;

export const calculationIdSchema = z.object({ id: z.uuid("Unknown calculation.") });

export const HISTORY_PAGE_SIZE = 10;

export const historyQuerySchema = z.object({
  q: z.string().trim().max(200).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
