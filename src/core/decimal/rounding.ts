import Decimal from "decimal.js";
import { isRoundingMode, ROUNDING_MODES, type RoundingMode } from "../rounding";

// The vocabulary lives in core/rounding.ts (shared with core/money); re-exported here under the same names.
export { isRoundingMode, ROUNDING_MODES, type RoundingMode };

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

/** The decimal.js rounding constant (0..8) for a mode name. */
export function toDecimalRounding(mode: RoundingMode): Decimal.Rounding {
  return TO_DECIMALJS[mode];
}
