/**
 * Loading the unit table and the calendar on first use (registry.ts): `prepare(source)` answers null
 * when the engine can evaluate `source` now, or a promise that resolves once what it may need has
 * loaded (one import, shared by every caller).
 */
import { getCurrency } from "../money/currencies";
import { CONSTANTS, FUNCTIONS, KEYWORDS } from "./parser";
import { isLoaded, register } from "./registry";

let loading: Promise<void> | undefined;

/** Loads the unit table and the calendar (once). */
export function loadExtensions(): Promise<void> {
  loading ??= import("./extensions").then((m) => register(m.EXTENSIONS));
  return loading;
}

/** Names that are never units: constants, reserved words, and the sheet's own words. */
const PLAIN = new Set<string>([
  ...CONSTANTS,
  ...KEYWORDS,
  "ans",
  "cash",
  "what",
  "sum",
  "subtotal",
  "total",
  "average",
  "prev",
]);

/**
 * Whether a program (and the values it is given) may need units or dates: a date, a degree sign, or
 * a name that is not a called function, constant, reserved word, currency code, line reference or
 * a name the program assigns (any other variable's name counts: the load is one import, made once).
 */
export function mayNeedExtensions(source: string, values: readonly unknown[] = []): boolean {
  if (/\d{4}-\d\d-\d\d|[°℃℉Δ]/.test(source)) return true;
  const assigned = new Set(Array.from(source.matchAll(/^\s*([A-Za-z_]\w*)\s*=/gm), (m) => m[1]));
  for (const m of source.matchAll(/([A-Za-z_][A-Za-z0-9_]*)(\s*\()?/g)) {
    const name = m[1] as string;
    if (PLAIN.has(name) || assigned.has(name) || /^line\d+$/.test(name)) continue;
    // a function when called (`min(3, 4)`); `min` alone is minutes
    if (m[2] && Object.hasOwn(FUNCTIONS, name)) continue;
    if (name.length === 3 && getCurrency(name)) continue;
    return true;
  }
  return values.some((v) => {
    const x = v as { kind?: unknown; unit?: unknown; per?: unknown } | null;
    return !!x && (x.kind === "date" || x.unit !== undefined || x.per !== undefined);
  });
}

/**
 * Null when `source` can be evaluated now; otherwise a promise to await once before evaluating it
 * (the unit table and the calendar load on first use).
 */
export function prepare(source: string, values: readonly unknown[] = []): Promise<void> | null {
  if (isLoaded() || !mayNeedExtensions(source, values)) return null;
  return loadExtensions();
}
