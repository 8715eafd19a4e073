/**
 * Calendar dates for the engine, on the Temporal API (temporal-polyfill): proleptic Gregorian dates
 * without time zones, years 0001 to 9999, kept as whole days since 1970-01-01. Adding months keeps a
 * month-end in a shorter month (2026-01-31 + 1 month = 2026-02-28: Temporal's "constrain").
 * Loaded on first use (registry.ts).
 */
import { Temporal } from "temporal-polyfill";
import { EngineError } from "./errors";
import type { Calendar } from "./registry";

const EPOCH = Temporal.PlainDate.from({ year: 1970, month: 1, day: 1 });
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

function dayOf(date: Temporal.PlainDate): number {
  return EPOCH.until(date, { largestUnit: "days" }).days;
}

function dateOf(day: number): Temporal.PlainDate {
  return EPOCH.add({ days: day });
}

const FIRST = dayOf(Temporal.PlainDate.from({ year: 1, month: 1, day: 1 }));
const LAST = dayOf(Temporal.PlainDate.from({ year: 9999, month: 12, day: 31 }));

function parse(text: string, pos: number, len: number): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const [year, month, day] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  const refuse = (why: string): never => {
    throw new EngineError("domain", `${text} is not a date: ${why}`, pos, len);
  };
  if (!m) refuse("write it as YYYY-MM-DD");
  if (year < 1) refuse("years run from 0001 to 9999");
  if (month < 1 || month > 12) refuse(`there is no month ${month}`);
  const days = Temporal.PlainYearMonth.from({ year, month }).daysInMonth;
  if (day < 1 || day > days) refuse(`${MONTH_NAMES[month - 1]} ${year} has ${days} days`);
  return dayOf(Temporal.PlainDate.from({ year, month, day }, { overflow: "reject" }));
}

export const CALENDAR: Calendar = {
  parse,
  format: (day) => dateOf(day).toString(),
  weekday: (day) => WEEKDAYS[dateOf(day).dayOfWeek - 1] as string,
  addMonths: (day, months) => dayOf(dateOf(day).add({ months }, { overflow: "constrain" })),
  first: FIRST,
  last: LAST,
};
