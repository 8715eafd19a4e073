/**
 * Physical units and durations with exact rational factors: each unit is its dimension and how many
 * of the dimension's base unit it is (1 km = 1000 m; 1 h = 3600 s; 1 GiB = 2^30 B). Exact by
 * construction: the international yard and pound (1959) and the US gallon (231 in³) are defined as
 * exact decimals. A month is 1/12 of a year and a year the Gregorian mean, 365.2425 days (so a month
 * is 30.436875 days): as a duration (`USD/month in USD/day`) that is what they mean; added to a date
 * they move it by calendar months instead (calendar.ts). Temperatures are points on a scale with an
 * offset (°C, °F, K), their differences another dimension (Δ°C, Δ°F, ΔK): see ARCHITECTURE.md and the
 * calculator docs. This table loads on first use (registry.ts).
 */
import type { Dimension, Unit } from "./dimensions";
import * as R from "./rational";

export { DIMENSION_NAMES, type Dimension, type Unit } from "./dimensions";

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
  ["time", "2629746", ["month", "months"]],
  ["time", "31556952", ["year", "years"]],
  ["data", "1", ["B"]],
  ["data", "0.125", ["bit"]],
  ["data", "1000", ["kB", "KB"]],
  ["data", "1000000", ["MB"]],
  ["data", "1000000000", ["GB"]],
  ["data", "1000000000000", ["TB"]],
  ["data", "1000000000000000", ["PB"]],
  ["data", "125", ["kbit"]],
  ["data", "125000", ["Mbit"]],
  ["data", "125000000", ["Gbit"]],
  ["data", "125000000000", ["Tbit"]],
  ["data", "1024", ["KiB"]],
  ["data", "1048576", ["MiB"]],
  ["data", "1073741824", ["GiB"]],
  ["data", "1099511627776", ["TiB"]],
  ["data", "1125899906842624", ["PiB"]],
  ["data", "128", ["Kibit"]],
  ["data", "131072", ["Mibit"]],
  ["data", "134217728", ["Gibit"]],
  ["temperature", "1", ["K", "kelvin"]],
  ["temperature", "1", ["°C", "degC", "celsius"]],
  ["temperature", "5/9", ["°F", "degF", "fahrenheit"]],
  ["temperature difference", "1", ["ΔK", "deltaK"]],
  ["temperature difference", "1", ["Δ°C", "deltaC"]],
  ["temperature difference", "5/9", ["Δ°F", "deltaF"]],
];

/** Where each temperature scale's zero lies, in kelvin. */
const OFFSETS: Readonly<Record<string, string>> = {
  "°C": "273.15",
  degC: "273.15",
  celsius: "273.15",
  "°F": "45967/180",
  degF: "45967/180",
  fahrenheit: "45967/180",
};

/** Each temperature scale's unit of differences. */
const DIFFERENCES: Readonly<Record<string, string>> = {
  K: "ΔK",
  kelvin: "ΔK",
  "°C": "Δ°C",
  degC: "Δ°C",
  celsius: "Δ°C",
  "°F": "Δ°F",
  degF: "Δ°F",
  fahrenheit: "Δ°F",
};

/** Calendar units: how many months one of them moves a date by. */
const MONTHS: Readonly<Record<string, number>> = { month: 1, months: 1, year: 12, years: 12 };

const UNITS: ReadonlyMap<string, Unit> = new Map(
  TABLE.flatMap(([dim, factor, names]) =>
    names.map((name) => {
      const offset = OFFSETS[name];
      const months = MONTHS[name];
      const difference = DIFFERENCES[name];
      const unit: Unit = {
        name,
        dim,
        factor: q(factor),
        ...(offset ? { offset: q(offset) } : {}),
        ...(months ? { months } : {}),
        ...(difference ? { difference } : {}),
      };
      return [name, unit] as const;
    }),
  ),
);

/** The unit a name stands for (exact case), or undefined. */
export function getUnit(name: string): Unit | undefined {
  return UNITS.get(name);
}

/** Every unit name, aliases included. */
export const UNIT_NAMES: readonly string[] = [...UNITS.keys()];
