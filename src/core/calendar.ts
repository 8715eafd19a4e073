/** UTC calendar helpers shared by the API quota (counted per month) and the usage screens. */

/** The UTC day of an instant as `YYYY-MM-DD`. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The first instant of the current UTC month and of the next one. */
export function monthBounds(now: Date): { start: Date; next: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, next };
}
