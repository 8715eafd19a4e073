/**
 * Bounds that keep every evaluation small: no input can hang or crash the page or the server.
 * Together they keep an evaluation within about 50 ms on a 2-core machine: the slow functions are capped
 * so one call stays near 20 ms at most, and a 40 ms wall-clock budget is checked between operations.
 */
export const LIMITS = {
  /** Longest accepted source, in characters. */
  maxLength: 10_000,
  /** Most statements in one program. */
  maxStatements: 1_000,
  /** Deepest nesting of parentheses, calls, unary operators and `^` chains. */
  maxDepth: 200,
  /** Precision bounds (significant digits). */
  minPrecision: 1,
  maxPrecision: 1_000,
  defaultPrecision: 20,
  /** Largest decimal exponent of any number or result: |x| < 10^(maxExponent+1), nonzero |x| ≥ 10^-maxExponent. */
  maxExponent: 1_000_000,
  /** Plain notation is used up to this exponent; beyond it results are shown in scientific notation. */
  maxPlainExponent: 1_000,
  /** Most arguments to min/max. */
  maxArgs: 1_000,
  /** Default wall-clock budget of one evaluation, checked between operations. */
  timeLimitMs: 40,
} as const;

/**
 * Highest precision at which each slow function may run (decimal.js's series for these grow roughly with
 * the cube of the digits). Functions not listed run at any precision up to maxPrecision.
 */
export const FUNCTION_PRECISION_LIMITS: Readonly<Record<string, number>> = {
  exp: 500,
  ln: 400,
  log10: 400,
  log2: 250,
  log: 250,
  pow: 350,
  sin: 500,
  cos: 500,
  tan: 500,
  asin: 200,
  acos: 200,
  atan: 200,
  atan2: 200,
  sinh: 500,
  cosh: 500,
  tanh: 500,
  asinh: 350,
  acosh: 350,
  atanh: 350,
};
