import Decimal from "decimal.js";

/**
 * The nine rounding modes, named as the calculator shows them. Each maps to the decimal.js constant
 * of the same meaning:
 *
 * | name         | decimal.js            | rounds …                                        |
 * |--------------|-----------------------|-------------------------------------------------|
 * | `up`         | ROUND_UP (0)          | away from zero                                  |
 * | `down`       | ROUND_DOWN (1)        | towards zero (truncate)                         |
 * | `ceil`       | ROUND_CEIL (2)        | towards +Infinity                               |
 * | `floor`      | ROUND_FLOOR (3)       | towards -Infinity                               |
 * | `half-up`    | ROUND_HALF_UP (4)     | to nearest; ties away from zero                 |
 * | `half-down`  | ROUND_HALF_DOWN (5)   | to nearest; ties towards zero                   |
 * | `half-even`  | ROUND_HALF_EVEN (6)   | to nearest; ties to the even neighbour (banker) |
 * | `half-ceil`  | ROUND_HALF_CEIL (7)   | to nearest; ties towards +Infinity              |
 * | `half-floor` | ROUND_HALF_FLOOR (8)  | to nearest; ties towards -Infinity              |
 */
export const ROUNDING_MODES = [
  "up",
  "down",
  "ceil",
  "floor",
  "half-up",
  "half-down",
  "half-even",
  "half-ceil",
  "half-floor",
] as const;

export type RoundingMode = (typeof ROUNDING_MODES)[number];

const TO_DECIMALJS: Record<RoundingMode, Decimal.Rounding> = {
  up: Decimal.ROUND_UP,
  down: Decimal.ROUND_DOWN,
  ceil: Decimal.ROUND_CEIL,
  floor: Decimal.ROUND_FLOOR,
  "half-up": Decimal.ROUND_HALF_UP,
  "half-down": Decimal.ROUND_HALF_DOWN,
  "half-even": Decimal.ROUND_HALF_EVEN,
  "half-ceil": Decimal.ROUND_HALF_CEIL,
  "half-floor": Decimal.ROUND_HALF_FLOOR,
};

export function isRoundingMode(value: unknown): value is RoundingMode {
  return typeof value === "string" && (ROUNDING_MODES as readonly string[]).includes(value);
}

/** The decimal.js rounding constant (0..8) for a mode name. */
export function toDecimalRounding(mode: RoundingMode): Decimal.Rounding {
  return TO_DECIMALJS[mode];
}
