import { z } from "zod";
import { LIMITS } from "@/core/decimal";
import { SHEET_ROW_LIMITS } from "@/core/notebook/limits";
import { ROUNDING_MODES } from "@/core/rounding";

const bytes = (s: string) => new TextEncoder().encode(s).length;

export const sheetFieldsSchema = z.object({
  title: z
    .string()
    .trim()
    .max(SHEET_ROW_LIMITS.titleChars, `A title has at most ${SHEET_ROW_LIMITS.titleChars} characters.`),
  body: z
    .string()
    .max(SHEET_ROW_LIMITS.bodyBytes, `A sheet has at most ${SHEET_ROW_LIMITS.bodyBytes / 1024} KB of text.`)
    .refine(
      (s) => bytes(s) <= SHEET_ROW_LIMITS.bodyBytes,
      `A sheet has at most ${SHEET_ROW_LIMITS.bodyBytes / 1024} KB of text.`,
    ),
  precision: z.number().int().min(LIMITS.minPrecision).max(LIMITS.maxPrecision),
  rounding: z.enum(ROUNDING_MODES),
});
export type SheetFields = z.infer<typeof sheetFieldsSchema>;

export const sheetIdSchema = z.object({ id: z.uuid("Unknown sheet.") });
export const updateSheetSchema = sheetFieldsSchema.extend({ id: z.uuid("Unknown sheet.") });
export const listSheetsSchema = z.object({
  q: z.string().trim().max(SHEET_ROW_LIMITS.search, "A search has at most 100 characters.").default(""),
});
