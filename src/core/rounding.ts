/**
 * The nine rounding modes: one vocabulary for the calculator, the money engine, onboarding and the
 * database enum. Pure data (no library), so `core/money` and `core/decimal` can both use it without
 * importing each other.
 *
 * | name         | rounds …                                        |
 * |--------------|-------------------------------------------------|
 * | `up`         | away from zero                                  |
 * | `down`       | towards zero (truncate)                         |
 * | `ceil`       | towards +Infinity                               |
 * | `floor`      | towards -Infinity                               |
 * | `half-up`    | to nearest; ties away from zero                 |
 * | `half-down`  | to nearest; ties towards zero                   |
 * | `half-even`  | to nearest; ties to the even neighbour (banker) |
 * | `half-ceil`  | to nearest; ties towards +Infinity              |
 * | `half-floor` | to nearest; ties towards -Infinity              |
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

/** What each mode is called wherever a person chooses one. */
export const ROUNDING_LABELS: Readonly<Record<RoundingMode, string>> = {
  "half-even": "Half even (ties to even, banker's)",
  "half-up": "Half up (ties away from zero)",
  "half-down": "Half down (ties towards zero)",
  "half-ceil": "Half ceiling (ties towards +∞)",
  "half-floor": "Half floor (ties towards −∞)",
  up: "Up (away from zero)",
  down: "Down (towards zero, truncate)",
  ceil: "Ceiling (towards +∞)",
  floor: "Floor (towards −∞)",
};

/** The modes in the order a picker lists them: ties-to-nearest modes first, the usual default on top. */
export const ROUNDING_OPTIONS: readonly { readonly mode: RoundingMode; readonly label: string }[] = (
  ["half-even", "half-up", "half-down", "half-ceil", "half-floor", "up", "down", "ceil", "floor"] as const
).map((mode) => ({ mode, label: ROUNDING_LABELS[mode] }));

export function isRoundingMode(value: unknown): value is RoundingMode {
  return typeof value === "string" && (ROUNDING_MODES as readonly string[]).includes(value);
}
