/** The unit table and the calendar, together: what registry.ts loads on first use. */
import { CALENDAR } from "./calendar";
import type { Extensions } from "./registry";
import { dimensionName, getUnit } from "./units";

export const EXTENSIONS: Extensions = { getUnit, dimensionName, calendar: CALENDAR };
