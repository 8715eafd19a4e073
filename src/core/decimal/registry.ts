/**
 * Where the engine finds its unit table and its calendar. They are the heavy, rarely needed parts
 * (the calendar brings a Temporal polyfill), so the browser loads them on first use: `@/core/decimal`
 * registers both when it is imported (servers, tests), `@/core/decimal/lazy` leaves them out until
 * `prepare(source)` has loaded them. Until then, an expression that needs one fails with `loading`.
 */
import { getCurrency } from "../money/currencies";
import type { Unit } from "./dimensions";
import { EngineError } from "./errors";

/** Calendar dates as whole days since 1970-01-01 (proleptic Gregorian, no time zone), 0001 to 9999. */
export interface Calendar {
  /** The day of a `YYYY-MM-DD` literal; throws an EngineError at pos when there is no such date. */
  parse(text: string, pos: number, len: number): number;
  /** The ISO text of a day. */
  format(day: number): string;
  /** The day's weekday in English ("Friday"). */
  weekday(day: number): string;
  /** The day moved by whole months, a month-end kept in the shorter month (Jan 31 + 1 month = Feb 28). */
  addMonths(day: number, months: number): number;
  /** The first and last days a date can be (0001-01-01 and 9999-12-31). */
  readonly first: number;
  readonly last: number;
}

export interface Extensions {
  readonly getUnit: (name: string) => Unit | undefined;
  /** How a dimension is named in an error ("a speed"). */
  readonly dimensionName: (dim: string) => string;
  readonly calendar: Calendar;
}

let loaded: Extensions | undefined;

export function register(extensions: Extensions): void {
  loaded = extensions;
}

export function isLoaded(): boolean {
  return loaded !== undefined;
}

function notLoaded(pos: number, len: number): EngineError {
  return new EngineError("loading", "Units and dates are still loading; try again", pos, len);
}

/**
 * The unit a name stands for, or undefined. Before the unit table is loaded, a currency code is known
 * not to be a unit; any other name may be one, and the lookup fails with `loading`.
 */
export function unitNamed(name: string, pos: number, len: number): Unit | undefined {
  if (loaded) return loaded.getUnit(name);
  if (name.length === 3 && getCurrency(name)) return undefined;
  throw notLoaded(pos, len);
}

/** A dimension's name for an error ("a length"); only units have dimensions, so the table is loaded. */
export function dimensionNamed(dim: string): string {
  return loaded ? loaded.dimensionName(dim) : "a quantity";
}

/** The calendar, or a `loading` error at pos. */
export function calendar(pos: number, len: number): Calendar {
  if (!loaded) throw notLoaded(pos, len);
  return loaded.calendar;
}
