import { z } from "zod";
import { LIMITS } from "@/core/decimal";
import { ROUNDING_MODES } from "@/core/rounding";
import { SAVE_LIMITS } from "./limits";

export { SAVE_LIMITS };

/**
 * What defines a calculation to save. Its result and currencies are not among them: the server
 * works them out from these (core/history/recompute.ts), whatever else a client sends.
 */
export const saveCalculationSchema = z.object({
  mode: z.enum(["decimal", "currency"]),
  expression: z.string().trim().min(1, "Nothing to save yet.").max(SAVE_LIMITS.expression),
  precision: z.number().int().min(LIMITS.minPrecision).max(LIMITS.maxPrecision),
  rounding: z.enum(ROUNDING_MODES),
  notation: z.enum(["plain", "scientific"]).default("plain"),
  note: z
    .string()
    .trim()
    .max(SAVE_LIMITS.note, `A note has at most ${SAVE_LIMITS.note} characters.`)
    .default(""),
});
export type SaveCalculationInput = z.infer<typeof saveCalculationSchema>;

export const calculationIdSchema = z.object({ id: z.uuid("Unknown calculation.") });

/** Undoing a delete: the calculation and the proof, handed to whoever deleted it, that they did. */
export const restoreCalculationSchema = calculationIdSchema.extend({
  undo: z.string().max(200, "That undo has expired."),
});

export const HISTORY_PAGE_SIZE = 10;

export const historyQuerySchema = z.object({
  q: z.string().trim().max(200).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
