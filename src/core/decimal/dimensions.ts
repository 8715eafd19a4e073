/**
 * What a quantity is (its dimension) and what a unit is: the light half of the units, always loaded.
 * The table of units itself (units.ts) and the calendar (calendar.ts) load on first use (registry.ts).
 */
import type * as R from "./rational";

export type Dimension =
  | "length"
  | "area"
  | "volume"
  | "mass"
  | "time"
  | "data"
  | "temperature"
  | "temperature difference";

/** How a dimension is named in an error: "Cannot add a duration and a length". */
export const DIMENSION_NAMES: Readonly<Record<Dimension, string>> = {
  length: "a length",
  area: "an area",
  volume: "a volume",
  mass: "a mass",
  time: "a duration",
  data: "an amount of data",
  temperature: "a temperature",
  "temperature difference": "a temperature difference",
};

export interface Unit {
  readonly name: string;
  readonly dim: Dimension;
  /** How many base units one of it is (m, m², m³, kg, s, B, K). */
  readonly factor: R.Q;
  /**
   * A temperature scale's zero in kelvin (273.15 for °C): a temperature is a point on a scale, held
   * in kelvin as value × factor + offset.
   */
  readonly offset?: R.Q;
  /** A temperature scale's unit of differences (°C → Δ°C). */
  readonly difference?: string;
  /** A calendar unit: added to a date, it moves the date by whole months (a year is 12 of them). */
  readonly months?: number;
}
