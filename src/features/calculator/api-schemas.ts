import { z } from "zod";
import { LIMITS, PRECISION_RULE } from "@/core/decimal/limits";
import { ROUNDING_MODES } from "@/core/decimal/rounding";

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
