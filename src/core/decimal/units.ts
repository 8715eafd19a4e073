/**
 * Physical units and durations with exact rational factors: each unit is its dimension and how many
 * of the dimension's base unit it is (1 km = 1000 m; 1 h = 3600 s; 1 GiB = 2^30 B). Exact by
 * construction: the international yard and pound (1959) and the US gallon (231 in³) are defined as
 * exact decimals. Months and years are not here: their length depends on the date.
 */
import * as R from "./rational";

export type Dimension = "length" | "area" | "volume" | "mass" | "time" | "data";

/** How a dimension is named in an error: "Cannot add a duration and a length". */
export const DIMENSION_NAMES: Readonly<Record<Dimension, string>> = {
  length: "a length",
  area: "an area",
  volume: "a volume",
  mass: "a mass",
  time: "a duration",
  data: "an amount of data",
};

export interface Unit {
  readonly name: string;
  readonly dim: Dimension;
  /** How many base units one of it is (m, m², m³, kg, s, B). */
  readonly factor: R.Q;
}

const q = (text: string): R.Q => R.fromString(text) as R.Q;

/** name (case-sensitive: MB is megabytes, mB nothing) → dimension and factor, aliases included. */
const TABLE: readonly (readonly [Dimension, string, readonly string[]])[] = [
  ["length", "1", ["m"]],
  ["length", "1000", ["km"]],
  ["length", "0.01", ["cm"]],
  ["length", "0.001", ["mm"]],
  ["length", "0.0254", ["inch"]],
  ["length", "0.3048", ["ft"]],
  ["length", "0.9144", ["yd"]],
  ["length", "1609.344", ["mi"]],
  ["area", "1", ["m2"]],
  ["area", "1000000", ["km2"]],
  ["area", "0.0001", ["cm2"]],
  ["area", "10000", ["ha"]],
  ["area", "0.09290304", ["ft2"]],
  ["volume", "1", ["m3"]],
  ["volume", "0.001", ["l", "L"]],
  ["volume", "0.000001", ["ml", "mL"]],
  ["volume", "0.003785411784", ["gal"]],
  ["mass", "1", ["kg"]],
  ["mass", "0.001", ["g"]],
  ["mass", "0.000001", ["mg"]],
  ["mass", "1000", ["t"]],
  ["mass", "0.45359237", ["lb"]],
  ["mass", "0.028349523125", ["oz"]],
  ["time", "1", ["s", "sec"]],
  ["time", "0.001", ["ms"]],
  ["time", "60", ["min"]],
  ["time", "3600", ["h", "hr"]],
  ["time", "86400", ["day", "days"]],
  ["time", "604800", ["week", "weeks"]],
  ["data", "1", ["B"]],
  ["data", "0.125", ["bit"]],
  ["data", "1000", ["kB", "KB"]],
  ["data", "1000000", ["MB"]],
  ["data", "1000000000", ["GB"]],
  ["data", "1000000000000", ["TB"]],
  ["data", "1024", ["KiB"]],
  ["data", "1048576", ["MiB"]],
  ["data", "1073741824", ["GiB"]],
  ["data", "1099511627776", ["TiB"]],
];

const UNITS: ReadonlyMap<string, Unit> = new Map(
  TABLE.flatMap(([dim, factor, names]) =>
    names.map((name) => [name, { name, dim, factor: q(factor) }] as const),
  ),
);

/** The unit a name stands for (exact case), or undefined. */
export function getUnit(name: string): Unit | undefined {
  return UNITS.get(name);
}

/** Every unit name, aliases included. */
export const UNIT_NAMES: readonly string[] = [...UNITS.keys()];
