/**
 * Physical units and durations with exact rational factors: each unit is its dimension and how many
 * of the dimension's base unit it is (1 km = 1000 m; 1 h = 3600 s; 1 GiB = 2^30 B). Exact by
 * construction: the international yard and pound (1959) and the US gallon (231 in³) are defined as
 * exact decimals. A month is 1/12 of a year and a year the Gregorian mean, 365.2425 days (so a month
 * is 30.436875 days): as a duration (`USD/month in USD/day`) that is what they mean; added to a date
 * they move it by calendar months instead (calendar.ts). Temperatures are points on a scale with an
 * offset (°C, °F, K), their differences another dimension (Δ°C, Δ°F, ΔK): see ARCHITECTURE.md and the
 * calculator docs. Compound units (`km/h`, `m/s²`, `kW·h`) are built from the named ones by name:
 * their factor is the exact product of the terms' factors, their dimension the sum of the terms'
 * exponents. This table loads on first use (registry.ts).
 */
import {
  type Dimension,
  type Exponents,
  formatTerms,
  MAX_UNIT_EXPONENT,
  mergeTerms,
  type Term,
  type Unit,
} from "./dimensions";
import * as R from "./rational";

export type { Dimension, Term, Unit } from "./dimensions";

/** The base dimensions, in the order a dimension's key and an exponent vector list them. */
export const BASES = ["length", "mass", "time", "data", "temperature difference"] as const;

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

const q = (text: string): R.Q => R.fromString(text) as R.Q;

/** Exponents of length, mass, time, data and temperature difference (dimensions.ts BASES). */
const L: Exponents = [1, 0, 0, 0, 0];
const L2: Exponents = [2, 0, 0, 0, 0];
const L3: Exponents = [3, 0, 0, 0, 0];
const M: Exponents = [0, 1, 0, 0, 0];
const T: Exponents = [0, 0, 1, 0, 0];
const D: Exponents = [0, 0, 0, 1, 0];
const K: Exponents = [0, 0, 0, 0, 1];
const SPEED: Exponents = [1, 0, -1, 0, 0];
const FORCE: Exponents = [1, 1, -2, 0, 0];
const ENERGY: Exponents = [2, 1, -2, 0, 0];
const POWER: Exponents = [2, 1, -3, 0, 0];
const PRESSURE: Exponents = [-1, 1, -2, 0, 0];
const FREQUENCY: Exponents = [0, 0, -1, 0, 0];

/**
 * name (case-sensitive: MB is megabytes, mB nothing) → exponents (null: a temperature on a scale),
 * how many base units (m, kg, s, B, K and their products) one of it is, aliases included.
 */
const TABLE: readonly (readonly [Exponents | null, string, readonly string[]])[] = [
  [L, "1", ["m"]],
  [L, "1000", ["km"]],
  [L, "0.01", ["cm"]],
  [L, "0.001", ["mm"]],
  [L, "0.0254", ["inch"]],
  [L, "0.3048", ["ft"]],
  [L, "0.9144", ["yd"]],
  [L, "1609.344", ["mi"]],
  [L2, "1", ["m2"]],
  [L2, "1000000", ["km2"]],
  [L2, "0.0001", ["cm2"]],
  [L2, "10000", ["ha"]],
  [L2, "0.09290304", ["ft2"]],
  [L3, "1", ["m3"]],
  [L3, "0.001", ["l", "L"]],
  [L3, "0.000001", ["ml", "mL"]],
  [L3, "0.003785411784", ["gal"]],
  [M, "1", ["kg"]],
  [M, "0.001", ["g"]],
  [M, "0.000001", ["mg"]],
  [M, "1000", ["t"]],
  [M, "0.45359237", ["lb"]],
  [M, "0.028349523125", ["oz"]],
  [T, "1", ["s", "sec"]],
  [T, "0.001", ["ms"]],
  [T, "60", ["min"]],
  [T, "3600", ["h", "hr"]],
  [T, "86400", ["day", "days"]],
  [T, "604800", ["week", "weeks"]],
  [T, "2629746", ["month", "months"]],
  [T, "31556952", ["year", "years"]],
  [D, "1", ["B"]],
  [D, "0.125", ["bit"]],
  [D, "1000", ["kB", "KB"]],
  [D, "1000000", ["MB"]],
  [D, "1000000000", ["GB"]],
  [D, "1000000000000", ["TB"]],
  [D, "1000000000000000", ["PB"]],
  [D, "125", ["kbit"]],
  [D, "125000", ["Mbit"]],
  [D, "125000000", ["Gbit"]],
  [D, "125000000000", ["Tbit"]],
  [D, "1024", ["KiB"]],
  [D, "1048576", ["MiB"]],
  [D, "1073741824", ["GiB"]],
  [D, "1099511627776", ["TiB"]],
  [D, "1125899906842624", ["PiB"]],
  [D, "128", ["Kibit"]],
  [D, "131072", ["Mibit"]],
  [D, "134217728", ["Gibit"]],
  [SPEED, "0.44704", ["mph"]],
  [FORCE, "1", ["N"]],
  [FORCE, "1000", ["kN"]],
  [ENERGY, "1", ["J"]],
  [ENERGY, "1000", ["kJ"]],
  [ENERGY, "1000000", ["MJ"]],
  [ENERGY, "3600", ["Wh"]],
  [ENERGY, "3600000", ["kWh"]],
  [ENERGY, "3600000000", ["MWh"]],
  [POWER, "1", ["W"]],
  [POWER, "1000", ["kW"]],
  [POWER, "1000000", ["MW"]],
  [PRESSURE, "1", ["Pa"]],
  [PRESSURE, "1000", ["kPa"]],
  [PRESSURE, "100000", ["bar"]],
  [FREQUENCY, "1", ["Hz"]],
  [FREQUENCY, "1000", ["kHz"]],
  [FREQUENCY, "1000000", ["MHz"]],
  [FREQUENCY, "1000000000", ["GHz"]],
  [null, "1", ["K", "kelvin"]],
  [null, "1", ["°C", "degC", "celsius"]],
  [null, "5/9", ["°F", "degF", "fahrenheit"]],
  [K, "1", ["ΔK", "deltaK"]],
  [K, "1", ["Δ°C", "deltaC"]],
  [K, "5/9", ["Δ°F", "deltaF"]],
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
  TABLE.flatMap(([exps, factor, names]) =>
    names.map((name) => {
      const offset = OFFSETS[name];
      const months = MONTHS[name];
      const difference = DIFFERENCES[name];
      const unit: Unit = {
        name,
        dim: exps ? dimensionOf(exps) : "temperature",
        factor: q(factor),
        ...(exps ? { exps, terms: [[name, 1]] as const } : {}),
        ...(offset ? { offset: q(offset) } : {}),
        ...(months ? { months } : {}),
        ...(difference ? { difference } : {}),
      };
      return [name, unit] as const;
    }),
  ),
);

/** Compound units already built, by the name asked for (bounded: cleared when full). */
const COMPOUNDS = new Map<string, Unit | null>();
const MAX_COMPOUNDS = 1_000;

/**
 * A compound unit from its name (`km/h`, `m/s^2`, `kW·h`, `EUR/kWh`'s `kWh`): the product of its
 * named units' factors and exponents, exact. Undefined when a term is not a unit or is a temperature
 * on a scale.
 */
function compound(name: string): Unit | undefined {
  const known = COMPOUNDS.get(name);
  if (known !== undefined) return known ?? undefined;
  const unit = buildCompound(name);
  if (COMPOUNDS.size >= MAX_COMPOUNDS) COMPOUNDS.clear();
  COMPOUNDS.set(name, unit ?? null);
  return unit;
}

function buildCompound(name: string): Unit | undefined {
  const parsed = parseTerms(name);
  if (!parsed) return undefined;
  const terms = mergeTerms(parsed);
  // m/m: the terms cancel out, a plain number
  if (terms.length === 0) return { name, dim: "", factor: R.ONE, exps: [0, 0, 0, 0, 0], terms };
  const exps = [0, 0, 0, 0, 0];
  let factor: R.Q | undefined = R.ONE;
  for (const [n, e] of terms) {
    const u = UNITS.get(n);
    if (!u?.exps) return undefined;
    u.exps.forEach((x, i) => {
      exps[i] = (exps[i] as number) + x * e;
    });
    const f = R.powInt(u.factor, e);
    factor = f && factor ? R.mul(factor, f) : undefined;
    if (!factor) return undefined;
  }
  if (terms.length === 1 && terms[0]?.[1] === 1) return UNITS.get(terms[0][0]);
  const dim = dimensionOf(exps);
  const same = EQUALS.find((u) => u.dim === dim && R.cmp(u.factor, factor as R.Q) === 0);
  return { name: formatTerms(terms), dim, factor, exps, terms, ...(same ? { named: same.name } : {}) };
}

/**
 * Named units a compound one can be shown as when it equals one exactly (kW·h is kWh, kg·m/s² is N):
 * each row's first name, not areas and volumes (m·m stays m², not m2).
 */
const EQUALS: readonly Unit[] = TABLE.flatMap(([exps, , names]) => {
  const u = exps?.slice(1).some((e) => e !== 0) ? UNITS.get(names[0] as string) : undefined;
  return u ? [u] : [];
});

/**
 * The unit a name stands for (exact case), or undefined: a named unit, or a compound of named
 * units (`km/h`, `m/s²`). Compound units whose dimensions cancel (`km/m`) have the dimension "".
 */
export function getUnit(name: string): Unit | undefined {
  return UNITS.get(name) ?? (/[/·*^²³]/.test(name) ? compound(name) : undefined);
}

/** Every unit name, aliases included. */
export const UNIT_NAMES: readonly string[] = [...UNITS.keys()];
