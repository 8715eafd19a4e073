import { z } from "zod";
import { LIMITS, PRECISION_RULE } from "@/core/decimal/limits";
import { ROUNDING_MODES } from "@/core/decimal/rounding";
import { SHEET_LIMITS } from "@/core/decimal/sheet";

const PRECISION_ERROR = `precision must be ${PRECISION_RULE}`;

export const calculateBody = z.object({
  expression: z
    .string({ error: "expression must be a string" })
    .max(10_000, "expression is longer than 10,000 characters")
    .describe(
      "The calculator's syntax. Percentages follow the documented table: `150 + 20%` is 180, `20% of 150` is 30, `30 as % of 120` is 25%.",
    ),
  precision: z
    .number({ error: PRECISION_ERROR })
    .int(PRECISION_ERROR)
    .min(LIMITS.minPrecision, PRECISION_ERROR)
    .max(LIMITS.maxPrecision, PRECISION_ERROR)
    .optional(),
  rounding: z.enum(ROUNDING_MODES, `rounding must be one of ${ROUNDING_MODES.join(", ")}`).optional(),
});

export const convertQuery = z.object({
  amount: z
    .string({ error: "amount is required" })
    .trim()
    .regex(/^-?\d{1,30}(\.\d{1,30})?$/, "amount must be a decimal number such as 12.50"),
  from: z
    .string({ error: "from is required" })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, "from must be a three-letter currency code"),
  to: z
    .string({ error: "to is required" })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, "to must be a three-letter currency code"),
  rounding: z
    .enum(ROUNDING_MODES, `rounding must be one of ${ROUNDING_MODES.join(", ")}`)
    .default("half-even"),
});

/** POST /api/v1/sheets/evaluate: a sheet in, one result per line out. */
export const sheetBody = z.object({
  sheet: z
    .string({ error: "sheet must be a string" })
    .max(
      SHEET_LIMITS.maxLength,
      `sheet is longer than ${SHEET_LIMITS.maxLength.toLocaleString("en-US")} characters`,
    )
    .refine((text) => text.split("\n").length <= SHEET_LIMITS.maxLines, {
      error: `sheet has more than ${SHEET_LIMITS.maxLines.toLocaleString("en-US")} lines`,
    })
    .describe(
      "Lines of the calculator's syntax: `# heading`, `// comment`, `name = …`, `line3`, `prev`, `sum`, `subtotal`, `total`, `average`.",
    ),
  precision: z
    .number({ error: PRECISION_ERROR })
    .int(PRECISION_ERROR)
    .min(LIMITS.minPrecision, PRECISION_ERROR)
    .max(LIMITS.maxPrecision, PRECISION_ERROR)
    .optional(),
  rounding: z.enum(ROUNDING_MODES, `rounding must be one of ${ROUNDING_MODES.join(", ")}`).optional(),
});

const lineResult = z.discriminatedUnion("kind", [
  z.object({ line: z.number().int(), kind: z.enum(["blank", "comment"]) }),
  z.object({ line: z.number().int(), kind: z.literal("heading"), text: z.string() }),
  z.object({
    line: z.number().int(),
    kind: z.literal("value"),
    result: z.string().describe('The result as shown: "1374.19 EUR", "25%", "1500 m"'),
    exact: z.boolean(),
    name: z.string().optional(),
    currency: z.string().optional(),
    unit: z.string().optional(),
    skipped: z
      .array(z.number().int())
      .optional()
      .describe("A sum, total or average over lines that measure different things: the lines it left out"),
  }),
  z.object({
    line: z.number().int(),
    kind: z.literal("error"),
    error: z.object({ code: z.string(), message: z.string(), column: z.number().int() }),
  }),
]);

export const sheetResponse = z.object({ lines: z.array(lineResult) });
