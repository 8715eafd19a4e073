/**
 * Money engine (pure: no I/O, runs in the browser and in Node).
 *
 * - currencies.ts  ISO 4217 table: getCurrency, isCurrencyCode, minorUnits, CURRENCIES
 * - cash.ts        cash increments from CLDR (CHF 0.05): cashStep, roundToCash
 * - money.ts       Money = { amount: bigint minor units, currency }; parseMoney, toDecimalString,
 *                  roundToMoney (all nine rounding modes, exact), add/subtract/sum/compare/multiply
 * - allocate.ts    split into N parts, allocate by ratios; parts always sum to the total
 * - tax.ts         addTax, extractTax, applyDiscount; parts add up exactly
 * - fx.ts          RateTable (base EUR), crossRate, inverseRate, convert (exact, then rounded once)
 * - rates.ts       the one reader of ECB eurofxref XML and of rate CSV files (parseEcbXml, parseRatesCsv)
 * - format.ts      formatMoney / formatAmount with Intl.NumberFormat held to ISO minor units
 *
 * Expected failures (bad input, missing rate) come back as `{ ok: false, error }`; misuse (an unknown
 * currency passed to `money()`, mixing currencies in `add`) throws a RangeError.
 */
export { isRoundingMode, ROUNDING_MODES, type RoundingMode } from "../rounding";
export { allocate, MAX_PARTS, type Ratio, split } from "./allocate";
export { CASH_SOURCE, cashStep, divideInCash, hasCashRounding, roundToCash } from "./cash";
export {
  CURRENCIES,
  type Currency,
  currencyName,
  DISPLAY_LOCALE,
  getCurrency,
  ISO4217_SOURCE,
  isCurrencyCode,
  minorUnits,
} from "./currencies";
export { type FormatMoneyOptions, formatAmount, formatMoney } from "./format";
export {
  convert,
  crossRate,
  crossRateFraction,
  hasRate,
  inverseRate,
  type RateTable,
  rateCurrencies,
  WORKING_PRECISION,
} from "./fx";
export {
  add,
  compare,
  equals,
  MAX_AMOUNT_DIGITS,
  type Money,
  type MoneyError,
  type MoneyResult,
  money,
  multiply,
  negate,
  parseMoney,
  roundToMoney,
  subtract,
  sum,
  toDecimalString,
  zero,
} from "./money";
export {
  isIsoDate,
  isPositiveRate,
  MAX_RATE_DATES,
  MAX_RATE_ROWS,
  MAX_RATES_FILE_CHARS,
  type ParsedRates,
  parseEcbXml,
  parseRatesCsv,
  type RateIssue,
  type RatesSource,
  singleTable,
} from "./rates";
export {
  addTax,
  applyDiscount,
  type DiscountBreakdown,
  extractTax,
  parseRate,
  type TaxBreakdown,
} from "./tax";
