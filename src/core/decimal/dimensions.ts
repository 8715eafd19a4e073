/**
 * What a quantity is (its dimension) and what a unit is: the light half of the units, always loaded.
 * The table of units itself (units.ts) and the calendar (calendar.ts) load on first use (registry.ts).
 *
 * A unit is a product of named units with whole exponents (`km/h`, `m/s²`, `kW·h`): its terms. Its
 * dimension is the product of base dimensions with whole exponents, written as a key (`length/time`);
 * two quantities are comparable when their keys are equal. A temperature on a scale (°C) is no
 * product: it has an offset, and takes part in no compound unit (its differences, Δ°C, do).
 */
import type * as R from "./rational";

/** A dimension's key: "length", "length^2", "length/time", "length^2·mass/time^2", "temperature". */
export type Dimension = string;

/** The base dimensions, in the order a dimension's key and an exponent vector list them. */
export const BASES = ["length", "mass", "time", "data", "temperature difference"] as const;

/** Whole exponents of the base dimensions, in BASES order. */
export type Exponents = readonly number[];

/** A named unit and its whole exponent in a compound unit: km/h is [km, 1], [h, -1]. */
export type Term = readonly [name: string, exp: number];

/** The key of a dimension from its exponents; "" when every exponent is zero (a plain number). */
export function dimensionOf(exps: Exponents): Dimension {
  const up: string[] = [];
  const down: string[] = [];
  exps.forEach((e, i) => {
    if (e === 0) return;
    const a = Math.abs(e);
    const part = a === 1 ? BASES[i] : `${BASES[i]}^${a}`;
    (e > 0 ? up : down).push(part as string);
  });
  if (down.length === 0) return up.join("·");
  return `${up.length ? up.join("·") : "1"}/${down.join("·")}`;
}

/** How a dimension is named in an error: "Cannot add a duration and a length". */
export const DIMENSION_NAMES: Readonly<Record<Dimension, string>> = {
  length: "a length",
  "length^2": "an area",
  "length^3": "a volume",
  mass: "a mass",
  time: "a duration",
  data: "an amount of data",
  temperature: "a temperature",
  "temperature difference": "a temperature difference",
  "length/time": "a speed",
  "length/time^2": "an acceleration",
  "length·mass/time^2": "a force",
  "length^2·mass/time^2": "an energy",
  "length^2·mass/time^3": "a power",
  "mass/length·time^2": "a pressure",
  "1/time": "a frequency",
  "data/time": "a data rate",
};

/** A dimension's name for an error; a compound one without a name is "a quantity". */
export function dimensionName(dim: Dimension): string {
  return Object.hasOwn(DIMENSION_NAMES, dim) ? (DIMENSION_NAMES[dim] as string) : "a quantity";
}

const SUPERSCRIPTS: Readonly<Record<string, number>> = { "²": 2, "³": 3 };

function power(a: number): string {
  return a === 1 ? "" : a === 2 ? "²" : a === 3 ? "³" : `^${a}`;
}

/**
 * A compound unit's name from its terms: `km/h`, `m/s²`, `kW·h`, `kg·m²/s²`, `h^-1` (only a
 * denominator). Read back by parseTerms.
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

/**
 * The terms of a compound unit's name (`km/h`, `m/s^2`, `m²`, `kg*m/s²`, `h^-1`): `·` or `*` join
 * terms, everything after a `/` is a denominator. Undefined when the text is not of that form.
 * Names are not looked up here.
 */
export function parseTerms(text: string): Term[] | undefined {
  if (text.length > 200) return undefined;
  const parts = text.split("/");
  const terms: Term[] = [];
  for (let p = 0; p < parts.length; p++) {
    const sign = p === 0 ? 1 : -1;
    for (const piece of (parts[p] as string).split(/[·*]/)) {
      const m = /^([^\s^²³]+)(?:\^(-?\d{1,2})|([²³]))?$/.exec(piece);
      if (!m) return undefined;
      const name = m[1] as string;
      if (p === 0 && parts.length > 1 && name === "1" && m[2] === undefined && m[3] === undefined) continue;
      const e = m[2] !== undefined ? Number(m[2]) : m[3] !== undefined ? (SUPERSCRIPTS[m[3]] as number) : 1;
      if (e === 0 || Math.abs(e) > MAX_UNIT_EXPONENT) return undefined;
      terms.push([name, sign * e]);
    }
  }
  return terms;
}

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
