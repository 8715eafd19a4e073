import { describe, expect, it } from "vitest";
import { ECB_SNAPSHOT } from "../money/ecb-snapshot";
import {
  type EvaluateOptions,
  evaluate,
  FUNCTION_PRECISION_LIMITS,
  formatResult,
  ROUNDING_MODES,
} from "./index";

/** A generous time budget: speed is measured in bench/, and a loaded machine must not fail a test here. */
const SLOW_MACHINE = { timeLimitMs: 10_000 } as const;

function ok(source: string, options: EvaluateOptions = {}): string {
  const r = evaluate(source, { ...SLOW_MACHINE, ...options });
  if (!r.ok) throw new Error(`${source.slice(0, 60)}: ${r.error.message}`);
  return r.display;
}

function err(source: string, options: EvaluateOptions = {}) {
  const r = evaluate(source, { ...SLOW_MACHINE, ...options });
  if (r.ok) throw new Error(`${source.slice(0, 60)}: expected an error, got ${r.display}`);
  return r.error;
}

describe("numbers", () => {
  it.each([
    ["0.1 + 0.2", "0.3"],
    ["1_000.50", "1000.5"],
    ["1_000_000 * 3", "3000000"],
    ["1e-7", "0.0000001"],
    ["2.5E+3", "2500"],
    [".5 + 5.", "5.5"],
    ["12%", "0.12"],
    ["7.5%", "0.075"],
    ["(1 + 2)%", "0.03"],
    ["200 * 15%", "30"],
    ["50% - 10%", "0.4"],
    ["12% * 3", "0.36"],
  ])("%s = %s", (source, expected) => {
    expect(ok(source)).toBe(expected);
  });
});

describe("operators", () => {
  it.each([
    ["1 + 2 * 3", "7"],
    ["(1 + 2) * 3", "9"],
    ["10 - 4 - 3", "3"],
    ["100 / 10 / 5", "2"],
    ["2 ^ 3 ^ 2", "512"],
    ["-2 ^ 2", "-4"],
    ["(-2) ^ 2", "4"],
    ["2 ^ -1", "0.5"],
    ["-3 * -3", "9"],
    ["+5", "5"],
    ["--5", "5"],
    ["10 % 3", "1"],
    ["10%3", "1"],
    ["-10 % 3", "-1"],
    ["10 % -3", "1"],
    ["5.5 % 2", "1.5"],
    ["2 * 3 % 4", "2"],
    ["1 / 3", "0.33333333333333333333"],
    ["2 / 3", "0.66666666666666666667"],
    ["4 × 2 ÷ 8 − 1", "0"],
  ])("%s = %s", (source, expected) => {
    expect(ok(source)).toBe(expected);
  });
});

describe("functions and constants", () => {
  it.each([
    ["abs(-2.5)", "2.5"],
    ["sqrt(2)", "1.4142135623730950488"],
    ["sqrt(144)", "12"],
    ["cbrt(-27)", "-3"],
    ["exp(1)", "2.7182818284590452354"],
    ["ln(e)", "1"],
    ["log10(1000)", "3"],
    ["log2(1024)", "10"],
    ["log2(3)", "1.5849625007211561815"],
    ["log(8, 2)", "3"],
    ["log(2, 4)", "0.5"],
    ["log(100)", "2"],
    ["pow(2, 10)", "1024"],
    ["round(2.5)", "3"],
    ["round(3.14159, 2)", "3.14"],
    ["floor(-2.5)", "-3"],
    ["ceil(-2.5)", "-2"],
    ["trunc(-2.7)", "-2"],
    ["min(3, 1, 2)", "1"],
    ["max(3, 1, 2, 7.5)", "7.5"],
    ["pi", "3.1415926535897932385"],
    ["e", "2.7182818284590452354"],
    ["π", "3.1415926535897932385"],
    ["sin(pi / 6)", "0.5"],
    ["cos(0)", "1"],
    ["tan(pi / 4)", "1"],
    ["asin(1)", "1.5707963267948966192"],
    ["acos(1)", "0"],
    ["atan(1)", "0.78539816339744830962"],
    ["atan2(1, 1)", "0.78539816339744830962"],
    ["sinh(0)", "0"],
    ["cosh(0)", "1"],
    ["tanh(1)", "0.76159415595576488812"],
    ["sinh(1)", "1.1752011936438014569"],
    ["cosh(1)", "1.5430806348152437785"],
    ["asinh(1)", "0.88137358701954302523"],
    ["acosh(2)", "1.3169578969248167086"],
    ["atanh(0.5)", "0.54930614433405484570"],
  ])("%s = %s", (source, expected) => {
    // compare numerically: the display drops trailing zeros
    const r = evaluate(source, SLOW_MACHINE);
    expect(r.ok && r.value.value).toBe(r.ok ? r.value.value : "error");
    expect(ok(source)).toBe(expected.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, ""));
  });

  it("tanh rounds its tails correctly in every direction", () => {
    expect(ok("tanh(100)", { precision: 5, rounding: "down" })).toBe("0.99999");
    expect(ok("tanh(100)", { precision: 5, rounding: "half-even" })).toBe("1");
    expect(ok("tanh(-100)", { precision: 5, rounding: "ceil" })).toBe("-0.99999");
    expect(ok("tanh(1e-8)", { precision: 5, rounding: "down" })).toBe("0.0000000099999");
    expect(ok("sinh(1e-8)", { precision: 5, rounding: "up" })).toBe("0.000000010001");
  });
});

describe("statements, variables and ans", () => {
  it("assigns and reuses variables across lines and semicolons", () => {
    const r = evaluate("rate = 7.5%\n1200 * rate");
    expect(r.ok && r.display).toBe("90");
    expect(r.ok && r.variables).toEqual({ rate: { kind: "number", value: "0.075" } });
    expect(ok("a = 2; b = a * 3; b ^ 2")).toBe("36");
    expect(ok("x = 4")).toBe("4");
  });

  it("reads ans and given variables", () => {
    expect(ok("ans * 2", { ans: { kind: "number", value: "21" } })).toBe("42");
    expect(ok("ans + 1 USD", { ans: { kind: "money", value: "2.5", currency: "USD" } })).toBe("3.50 USD");
    expect(ok("tax * 100", { variables: { tax: { kind: "number", value: "0.2" } } })).toBe("20");
  });

  it("ignores blank statements and newlines inside parentheses", () => {
    expect(ok("\n\n1 + 1;;\n")).toBe("2");
    expect(ok("(1 +\n 2)")).toBe("3");
  });
});

describe("money", () => {
  const rates = ECB_SNAPSHOT;
  it("keeps currency and rounds the display to minor units", () => {
    expect(ok("12.50 USD")).toBe("12.50 USD");
    expect(ok("38.12 bhd")).toBe("38.120 BHD");
    expect(ok("15234 JPY")).toBe("15234 JPY");
    expect(ok("10 USD / 3")).toBe("3.33 USD");
    expect(ok("10 USD / 3", { rounding: "up" })).toBe("3.34 USD");
    expect(ok("2 * 3 USD")).toBe("6.00 USD");
    expect(ok("-12 USD")).toBe("-12.00 USD");
    expect(ok("(2 + 3) eur")).toBe("5.00 EUR");
    expect(ok("10 USD / 4 USD")).toBe("2.5");
    expect(ok("abs(-3 USD)")).toBe("3.00 USD");
    expect(ok("round(2.345 USD, 1)")).toBe("2.30 USD");
    expect(ok("1 CLF / 3")).toBe("0.3333 CLF");
  });

  it("exposes the exact value and the rounded amount", () => {
    const r = evaluate("10 USD / 3");
    expect(r.ok && r.full).toBe("3.3333333333333333333");
    expect(r.ok && r.exact).toBe(false);
    expect(r.ok && r.money).toEqual({ amount: "3.33", currency: "USD" });
    // the value (`ans`, variables) is the amount shown, rounded to minor units
    expect(r.ok && r.value).toEqual({ kind: "money", value: "3.33", currency: "USD" });
  });

  it("continues from the amount shown: ans after a money result is the rounded amount", () => {
    const r = evaluate("1 EUR in JPY", { rates });
    expect(r.ok && r.display).toBe("181 JPY"); // 181.42 JPY, rounded to yen
    const ans = r.ok ? r.value : null;
    expect(ans).toEqual({ kind: "money", value: "181", currency: "JPY" });
    expect(ok("ans * 2", { ans, rates })).toBe("362 JPY"); // not 363 (2 × 181.42 = 362.84)
    const vars = evaluate("price = 1 EUR in JPY", { rates });
    expect(vars.ok && vars.variables.price).toEqual({ kind: "money", value: "181", currency: "JPY" });
    const big = evaluate("2^100 USD / 3");
    expect(big.ok && big.money?.amount).toBe("422550200076076467165567735125.33");
    expect(big.ok && ok("ans * 3", { ans: big.value })).toBe("1267650600228229401496703205375.99 USD");
  });

  it("converts with in/to at the lowest precedence", () => {
    // 100 EUR = 18142 JPY exactly at 181.42 JPY/EUR
    expect(ok("100 EUR in JPY", { rates })).toBe("18142 JPY");
    expect(ok("100 EUR to jpy", { rates })).toBe("18142 JPY");
    expect(ok("1 USD in USD", { rates })).toBe("1.00 USD");
    // 1.1582 USD = 1 EUR
    expect(ok("1.1582 USD in EUR", { rates })).toBe("1.00 EUR");
    expect(ok("(1.1582 USD in EUR) * 2", { rates })).toBe("2.00 EUR");
    // 120 USD + 45 EUR: 45 EUR = 52.119 USD; total 172.119 USD × 181.42/1.1582 = 26960.65… JPY
    expect(ok("120 USD + 45 EUR in JPY", { rates })).toBe("26961 JPY");
    expect(ok("120 USD + 45 EUR in JPY", { rates, rounding: "down" })).toBe("26960 JPY");
    expect(ok("10 EUR in USD in EUR", { rates })).toBe("10.00 EUR");
    // rates are cached per table; another table, or a table whose rate changed in place, is used at once
    const other = { ...rates, rates: { ...rates.rates, JPY: "200" } };
    expect(ok("100 EUR in JPY", { rates: other })).toBe("20000 JPY");
    expect(ok("100 EUR in JPY", { rates })).toBe("18142 JPY");
    (other.rates as Record<string, string>).JPY = "150";
    expect(ok("100 EUR in JPY", { rates: other })).toBe("15000 JPY");
  });

  it.each([
    ["12.50 XYZ", "unknown_currency", "Unknown currency XYZ", 7],
    ["10 USD + 1", "type", "Cannot add an amount in USD and a number", 8],
    ["1 - 10 USD", "type", "Cannot subtract a number and an amount in USD", 3],
    ["2 USD * 3 USD", "type", "Cannot multiply two amounts of money", 7],
    ["1 / 2 USD", "type", "Cannot divide a number by an amount in USD", 3],
    ["sqrt(4 USD)", "type", "sqrt() needs a number, not an amount in USD", 1],
    ["2 USD ^ 2", "type", "Powers need plain numbers, not amounts of money", 7],
    ["5 in JPY", "type", "Cannot convert a plain number to JPY; give it a currency, e.g. 5 USD in JPY", 3],
    ["5 USD in JPY", "no_rate", "No exchange rates are available to convert USD to JPY", 7],
    ["5 USD in XYZ", "unknown_currency", "Unknown currency XYZ", 10],
    ["5 USD in", "syntax", "Expected a currency code after 'in' at column 9", 9],
    ["(5 USD) EUR", "type", "The amount already has a currency (USD)", 9],
  ])("%s → %s", (source, code, message, column) => {
    expect(err(source)).toMatchObject({ code, message, column });
  });

  it("reports a currency missing from the rate table", () => {
    expect(err("5 USD in KWD", { rates: ECB_SNAPSHOT })).toMatchObject({
      code: "no_rate",
      message: "No exchange rate for KWD on 2026-11-20",
    });
  });
});

describe("errors name what and where", () => {
  it.each([
    ["2 * 3)", "syntax", "Unexpected ')' at column 6", 6],
    ["(1 + 2))", "syntax", "Unexpected ')' at column 8", 8],
    ["2 * (3", "syntax", "Expected ')' at column 7", 7],
    ["max(1, 2", "syntax", "Expected ',' or ')' at column 9", 9],
    ["1 +", "syntax", "Unexpected end of input", 4],
    ["2 3", "syntax", "Unexpected '3' at column 3", 3],
    ["2 x", "unknown_unit", "Unknown unit 'x' at column 3", 3],
    ["2 pi", "syntax", "Unexpected 'pi' at column 3", 3],
    ["3 parsecs", "unknown_unit", "Unknown unit 'parsecs' at column 3", 3],
    ["3 km in furlongs", "unknown_unit", "Unknown unit 'furlongs' at column 9", 9],
    ["* 2", "syntax", "Unexpected '*' at column 1", 1],
    ["1 $ 2", "syntax", "Unexpected character '$' at column 3", 3],
    ["1_", "syntax", "Unexpected '_' in a number at column 2", 2],
    ["1..2", "syntax", "Unexpected '.' in a number at column 3", 3],
    ["sqrt 4", "syntax", "Expected '(' after sqrt at column 6", 6],
    ["pi = 3", "syntax", "Cannot assign to the constant pi at column 1", 1],
    ["ans = 3", "syntax", "Cannot assign to ans at column 1", 1],
    ["sqrt = 3", "syntax", "Cannot assign to sqrt: it is a function at column 1", 1],
    ["foo(1)", "unknown_function", "Unknown function foo", 1],
    ["x + 1", "unknown_variable", "Unknown variable x", 1],
    ["ans", "unknown_variable", "There is no previous result for ans", 1],
    ["1 / 0", "division_by_zero", "Division by zero", 3],
    ["1 % 0", "division_by_zero", "Division by zero", 3],
    ["0 ^ -1", "division_by_zero", "Division by zero", 3],
    ["sqrt(-1)", "domain", "sqrt() of a negative number is undefined", 1],
    ["ln(0)", "domain", "ln() of zero or a negative number is undefined", 1],
    ["log(8, 1)", "domain", "log() needs a positive base other than 1", 1],
    ["asin(2)", "domain", "asin() needs a number from -1 to 1", 1],
    ["acosh(0.5)", "domain", "acosh() needs a number of at least 1", 1],
    ["atanh(1)", "domain", "atanh() needs a number between -1 and 1", 1],
    ["(-8) ^ (1/3)", "domain", "A negative number to a fractional power is undefined", 6],
    ["round(1.5, -1)", "domain", "round() decimal places must be a whole number from 0 to 1000", 1],
    ["sqrt(1, 2)", "arity", "sqrt() takes 1 argument, not 2", 1],
    ["log()", "arity", "log() takes 1 or 2 arguments, not 0", 1],
    ["max()", "arity", "max() takes at least 1 argument, not 0", 1],
    ["1e2000000", "overflow", "The result is too large (above 10^1000000)", 1],
    ["10 ^ 1000001", "overflow", "The result is too large (above 10^1000000)", 4],
    ["0.1 ^ 1000001", "overflow", "The result is too small (below 10^-1000000)", 5],
    ["exp(1e7)", "overflow", "exp() result is too large (above 10^1000000)", 1],
    ["1e999999999999", "overflow", "Number is out of range at column 1", 1],
    ["", "empty", "Enter an expression", 1],
    ["  \n ; ", "empty", "Enter an expression", 1],
  ])("%s → %s", (source, code, message, column) => {
    expect(err(source)).toMatchObject({ code, message, column });
  });

  it("gives line and column in multi-line programs", () => {
    expect(err("a = 1\nb = a +* 2")).toMatchObject({
      message: "Unexpected '*' at line 2, column 8",
      line: 2,
      column: 8,
      offset: 13,
    });
    expect(err("a = 1\na / 0")).toMatchObject({ code: "division_by_zero", line: 2, column: 3 });
  });
});

describe("options and bounds", () => {
  it("computes at the chosen precision and rounding", () => {
    expect(ok("1 / 3", { precision: 5 })).toBe("0.33333");
    expect(ok("2 / 3", { precision: 5, rounding: "down" })).toBe("0.66666");
    expect(ok("1 / 3", { precision: 50 })).toBe(`0.${"3".repeat(50)}`);
    expect(ok("1.23456", { precision: 3 })).toBe("1.23");
    expect(ok("pi", { precision: 1000 })).toHaveLength(1001);
    expect(ok("2.5", { precision: 1, rounding: "half-even" })).toBe("2");
    expect(ok("2.5", { precision: 1, rounding: "half-ceil" })).toBe("3");
    expect(ok("-2.5", { precision: 1, rounding: "half-ceil" })).toBe("-2");
    expect(ok("-2.5", { precision: 1, rounding: "half-floor" })).toBe("-3");
  });

  it("formats in plain or scientific notation", () => {
    expect(ok("1e-7", { notation: "scientific" })).toBe("1e-7");
    expect(ok("12345.6", { notation: "scientific" })).toBe("1.23456e+4");
    expect(ok("10 ^ 1500")).toBe("1e+1500");
    expect(ok("10 ^ 30")).toBe(`1${"0".repeat(30)}`);
    // exact: every zero is a digit of the value
    expect(ok("2 ^ 100", { precision: 40 })).toBe("1267650600228229401496703205376");
    // rounded to fewer digits than the integer has: plain notation would invent the rest as zeros
    expect(ok("2 ^ 1000")).toBe("1.0715086071862673209e+301");
    expect(ok("2 ^ 100")).toBe("1.2676506002282294015e+30");
    expect(ok("2 ^ 1000", { precision: 302 })).toMatch(/^10715086\d{294}$/);
    expect(ok("12345678901234567890.4")).toBe("12345678901234567890");
    expect(ok("exp(100)")).toBe("2.6881171418161354484e+43");
    expect(ok("2^100 USD")).toBe("1267650600228229401496703205376.00 USD");
    const money = evaluate("2^100 USD / 3");
    expect(money.ok && money.full).toBe("4.2255020007607646717e+29");
    expect(formatResult({ kind: "number", value: "12345.6" }, { notation: "scientific" })?.display).toBe(
      "1.23456e+4",
    );
    expect(
      formatResult({ kind: "money", value: "1.005", currency: "USD" }, { rounding: "half-even" })?.display,
    ).toBe("1.00 USD");
  });

  it("accepts every rounding mode and rejects bad options", () => {
    for (const rounding of ROUNDING_MODES) expect(evaluate("1/3", { rounding }).ok).toBe(true);
    expect(err("1", { precision: 0 }).code).toBe("invalid_option");
    expect(err("1", { precision: 1001 }).code).toBe("invalid_option");
    expect(err("1", { precision: 2.5 }).code).toBe("invalid_option");
    expect(err("1", { rounding: "nearest" as never }).code).toBe("invalid_option");
    expect(err("x", { variables: { x: { kind: "number", value: "abc" } } }).code).toBe("invalid_option");
  });

  it("caps slow functions' precision, length, depth and statements", () => {
    // (asin(0.5) = pi/6 is exact now, so it is no longer slow: the cap is shown with asin(0.3))
    // (the caps are derived from the cost model, so the budget and the caps cannot drift apart; cost.test.ts pins them)
    expect(err("asin(0.3)", { precision: 1000 })).toMatchObject({
      code: "limit",
      message: `asin() is limited to ${FUNCTION_PRECISION_LIMITS.asin} significant digits; lower the precision`,
    });
    // (2 ^ 0.5 = sqrt(2) is computed without exp and ln now, so it is no longer capped: 2 ^ 0.3 is)
    expect(err("2 ^ 0.3", { precision: 1000 }).code).toBe("limit");
    expect(ok("2 ^ 1000", { precision: 1000 })).toMatch(/^10715086/);
    expect(err(`${"1+".repeat(5001)}1`).code).toBe("limit");
    expect(err(`${"(".repeat(201)}1${")".repeat(201)}`)).toMatchObject({ code: "limit" });
    expect(ok(`${"(".repeat(150)}1${")".repeat(150)}`)).toBe("1");
    expect(err(`${"-".repeat(300)}1`).code).toBe("limit");
    expect(err(`2${"^2".repeat(300)}`).code).toBe("limit");
    expect(err(`1${"%".repeat(300)}`).code).toBe("limit");
    expect(err("1;".repeat(1001)).code).toBe("limit");
    // (a generous time budget: a cold JIT makes the first long parse slow; speed is measured in bench/)
    expect(ok(Array.from({ length: 3000 }, () => "1").join("+"), { timeLimitMs: 10_000 })).toBe("3000");
  });

  it("recovers decimal.js's state after one of its exceptions", () => {
    // decimal.js changes its constructor's precision while it works and restores it only on success
    // (sin(1e900) and tan(1e999) are computed now, with the engine's own reduction modulo 2π; beyond
    // its 2,100 digits of π decimal.js is still asked, and throws)
    expect(err("sin(1e2500)", { precision: 300 })).toMatchObject({
      code: "limit",
      message: "sin() cannot be computed for this argument at this precision",
    });
    expect(err("tan(1e2500)", { precision: 20 }).code).toBe("limit");
    expect(ok("ln(2)", { precision: 20 })).toBe("0.69314718055994530942");
    expect(ok("sin(1e900)", { precision: 20 })).toBe("-0.95100972744091108769");
    expect(ok("exp(1) + 1 / 3", { precision: 20 })).toBe("3.0516151617923785687");
  });

  it("stops a long computation at the time budget", () => {
    const slow = Array.from({ length: 60 }, () => "exp(1.5)").join("+");
    const r = evaluate(slow, { precision: 300, timeLimitMs: 5 });
    expect(r.ok ? "ok" : r.error.message).toBe("The calculation took too long");
  });
});
