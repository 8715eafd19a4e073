/**
 * The expression engine for the browser: the same API as `@/core/decimal`, without the unit table and
 * the calendar, which load on first use. Before evaluating, await `prepare(source)` when it is not
 * null; an expression that needs them before they loaded fails with the error code `loading`.
 */
export * from "./engine";
export { loadExtensions, mayNeedExtensions, prepare } from "./prepare";
export * from "./sheet-core";
