/**
 * The expression engine with its unit table and calendar loaded (servers, tests, scripts). The
 * browser imports `@/core/decimal/lazy` instead, which loads them on first use. See engine.ts.
 */
import "./eager";

export * from "./engine";
export { prepare } from "./prepare";
