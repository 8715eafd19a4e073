import { z } from "zod";
import { ROUNDING_MODES } from "@/core/decimal/rounding";

export const calculateBody = z.object({
  expression: z
    .string({ error: "expression must be a string" })
    .max(10_000, "expression is longer than 10,000 characters"),
  precision: z
    .number({ error: "precision must be a whole number from 1 to 1000" })
    .int("precision must be a whole number from 1 to 1000")
    .min(1, "precision must be a whole number from 1 to 1000")
    .max(1000, "precision must be a whole number from 1 to 1000")
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
