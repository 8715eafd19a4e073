/**
 * What a quantity is (its dimension) and what a unit is: the light half of the units, always loaded.
 * The table of units itself (units.ts) and the calendar (calendar.ts) load on first use (registry.ts).
 *
 * A unit is a product of named units with whole exponents (`km/h`, `m/s²`, `kW·h`): its terms. Its
 * dimension is the product of base dimensions with whole exponents, written as a key (`length/time`,
 * units.ts); two quantities are comparable when their keys are equal. A temperature on a scale (°C) is no
 * product: it has an offset, and takes part in no compound unit (its differences, Δ°C, do).
 */
import type * as R from "./rational";

/** A dimension's key: "length", "length^2", "length/time", "length^2·mass/time^2", "temperature". */
export type Dimension = string;

/** Whole exponents of the base dimensions, in the order of units.ts BASES. */
export type Exponents = readonly number[];

/** A named unit and its whole exponent in a compound unit: km/h is [km, 1], [h, -1]. */
export type Term = readonly [name: string, exp: number];

function power(a: number): string {
  return a === 1 ? "" : a === 2 ? "²" : a === 3 ? "³" : `^${a}`;
}

/**
 * A compound unit's name from its terms: `km/h`, `m/s²`, `kW·h`, `kg·m²/s²`, `h^-1` (only a
 * denominator). Read back by units.ts parseTerms.
 */
export function formatTerms(terms: readonly Term[]): string {
  const up = terms.filter(([, e]) => e > 0);
  const down = terms.filter(([, e]) => e < 0);
  if (up.length === 0) return down.map(([n, e]) => `${n}^${e}`).join("·");
  const top = up.map(([n, e]) => `${n}${power(e)}`).join("·");
  if (down.length === 0) return top;
  return `${top}/${down.map(([n, e]) => `${n}${power(-e)}`).join("·")}`;
}

/** Terms with equal names merged and zero exponents dropped, in first-seen order. */
export function mergeTerms(terms: readonly Term[]): Term[] {
  const out: [string, number][] = [];
  for (const [n, e] of terms) {
    const same = out.find(([m]) => m === n);
    if (same) same[1] += e;
    else out.push([n, e]);
  }
  return out.filter(([, e]) => e !== 0);
}

/** The largest exponent a unit's term may have (`m^12`); beyond it a power is refused. */
export const MAX_UNIT_EXPONENT = 12;

export interface Unit {
  /** Its name as shown; a compound unit's is formatTerms of its terms. */
  readonly name: string;
  readonly dim: Dimension;
  /** How many base units one of it is (m, m², m³, kg, s, B, K; m/s for km/h). */
  readonly factor: R.Q;
  /** Its base dimensions' exponents; none for a temperature on a scale. */
  readonly exps?: Exponents;
  /** The named units it is made of (a named unit: itself to the power 1); none for a temperature. */
  readonly terms?: readonly Term[];
  /** A named unit exactly equal to this compound one (kW·h: kWh), to show a result in. */
  readonly named?: string;
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
