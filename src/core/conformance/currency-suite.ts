/**
 * The currency conformance suite shown at /admin/currency-test, run live in the browser (pure: it
 * uses only the money engine and the platform's `Intl`). Each check passes or fails with a detail;
 * where `Intl` disagrees with ISO 4217 about minor units the difference is listed and explained
 * rather than hidden: Abacus always uses the ISO figure and passes explicit fraction digits.
 */
import { planPriceUsd, plans } from "../billing/plans";
import { ROUNDING_MODES, type RoundingMode } from "../decimal/rounding";
import { split } from "../money/allocate";
import { CURRENCIES } from "../money/currencies";
import { formatMoney } from "../money/format";
import { convert, crossRate, type RateTable, rateCurrencies } from "../money/fx";
import { money, parseMoney, roundToMoney, sum, toDecimalString } from "../money/money";

export type CheckGroup =
  | "minor-units"
  | "formatting"
  | "rounding"
  | "conversion"
  | "cross-rates"
  | "splits"
  | "plan-prices";

export const CHECK_GROUPS: { id: CheckGroup; label: string }[] = [
  { id: "minor-units", label: "Minor units: ISO 4217 vs Intl" },
  { id: "formatting", label: "Formatting samples" },
  { id: "rounding", label: "Rounding modes" },
  { id: "conversion", label: "Conversion round trips" },
  { id: "cross-rates", label: "Cross-rate consistency" },
  { id: "splits", label: "Split sums" },
  { id: "plan-prices", label: "Plan prices" },
];

export type Check = { group: CheckGroup; name: string; pass: boolean; detail: string };

/**
 * Where `Intl` (CLDR) differs from ISO 4217 on purpose: CLDR shows these currencies without their
 * legal minor unit because cash has none in practice. Such a difference is expected; any other is a failure.
 */
export const KNOWN_INTL_DIFFERENCES = new Set([
  "AFN",
  "ALL",
  "COP",
  "HUF",
  "IDR",
  "IQD",
  "IRR",
  "KPW",
  "LAK",
  "LBP",
  "MGA",
  "MMK",
  "PKR",
  "RSD",
  "SOS",
  "SYP",
  "TWD",
  "UYU",
  "YER",
]);

function intlDigits(code: string): number | null {
  try {
    return (
      new Intl.NumberFormat("en-US", { style: "currency", currency: code }).resolvedOptions()
        .maximumFractionDigits ?? null
    );
  } catch {
    return null;
  }
}

function minorUnitChecks(): Check[] {
  return CURRENCIES.map((c) => {
    const intl = intlDigits(c.code);
    if (intl === null)
      return {
        group: "minor-units",
        name: c.code,
        pass: true,
        detail: `Intl does not know ${c.code}; ISO ${c.minorUnits} is used`,
      };
    if (intl === c.minorUnits)
      return { group: "minor-units", name: c.code, pass: true, detail: `${c.minorUnits} (both agree)` };
    const known = KNOWN_INTL_DIFFERENCES.has(c.code) || c.code.startsWith("X");
    return {
      group: "minor-units",
      name: c.code,
      pass: known,
      detail: known
        ? `ISO ${c.minorUnits}, Intl ${intl}: a known CLDR display choice; Abacus formats with ISO's ${c.minorUnits}`
        : `ISO ${c.minorUnits}, Intl ${intl}: unexpected difference`,
    };
  });
}

function formattingChecks(): Check[] {
  return CURRENCIES.map((c) => {
    const m = money(123456789n, c.code);
    const text = formatMoney(m, { locale: "en-US", currencyDisplay: "code" });
    const digits = /\.(\d+)/.exec(text)?.[1]?.length ?? 0;
    return {
      group: "formatting",
      name: c.code,
      pass: digits === c.minorUnits && text.includes(c.code),
      detail: `${toDecimalString(m)} → ${text}`,
    };
  });
}

/** Expected results of each mode on sample values (USD, two decimals), from the modes' definitions. */
const ROUNDING_SAMPLES: { value: string; expected: Record<RoundingMode, string> }[] = [
  {
    value: "1.005",
    expected: {
      up: "1.01",
      down: "1.00",
      ceil: "1.01",
      floor: "1.00",
      "half-up": "1.01",
      "half-down": "1.00",
      "half-even": "1.00",
      "half-ceil": "1.01",
      "half-floor": "1.00",
    },
  },
  {
    value: "-1.005",
    expected: {
      up: "-1.01",
      down: "-1.00",
      ceil: "-1.00",
      floor: "-1.01",
      "half-up": "-1.01",
      "half-down": "-1.00",
      "half-even": "-1.00",
      "half-ceil": "-1.00",
      "half-floor": "-1.01",
    },
  },
  {
    value: "2.675",
    expected: {
      up: "2.68",
      down: "2.67",
      ceil: "2.68",
      floor: "2.67",
      "half-up": "2.68",
      "half-down": "2.67",
      "half-even": "2.68",
      "half-ceil": "2.68",
      "half-floor": "2.67",
    },
  },
  {
    value: "0.0049",
    expected: {
      up: "0.01",
      down: "0.00",
      ceil: "0.01",
      floor: "0.00",
      "half-up": "0.00",
      "half-down": "0.00",
      "half-even": "0.00",
      "half-ceil": "0.00",
      "half-floor": "0.00",
    },
  },
];

function roundingChecks(): Check[] {
  const out: Check[] = [];
  for (const mode of ROUNDING_MODES)
    for (const s of ROUNDING_SAMPLES) {
      const got = toDecimalString(roundToMoney(s.value, "USD", mode));
      const want = s.expected[mode];
      out.push({
        group: "rounding",
        name: `${mode} ${s.value}`,
        pass: got === want,
        detail: `${s.value} → ${got} (expected ${want})`,
      });
    }
  return out;
}

function conversionChecks(table: RateTable): Check[] {
  const out: Check[] = [];
  const start = money(10_000n, "EUR");
  for (const code of rateCurrencies(table)) {
    if (code === "EUR") continue;
    const there = convert(start, code, table);
    const back = there.ok ? convert(there.value, "EUR", table) : there;
    if (!there.ok || !back.ok) {
      out.push({ group: "conversion", name: code, pass: false, detail: "no rate" });
      continue;
    }
    // One rounding each way can move the result by at most the source's minor unit, scaled back.
    const drift = back.value.amount - start.amount;
    const minor = CURRENCIES.find((c) => c.code === code)?.minorUnits ?? 0;
    const [whole = "1", frac = ""] = (table.rates[code] ?? "1").split(".");
    // One minor unit of the target in euro cents, rounded up: 100 / (rate × 10^minor), exactly.
    const num = 100n * 10n ** BigInt(frac.length);
    const den = BigInt(whole + frac) * 10n ** BigInt(minor);
    const bound = (num + den - 1n) / den + 1n;
    const pass = drift <= bound && drift >= -bound;
    out.push({
      group: "conversion",
      name: code,
      pass,
      detail: `100.00 EUR → ${toDecimalString(there.value)} ${code} → ${toDecimalString(back.value)} EUR`,
    });
  }
  return out;
}

function crossRateChecks(table: RateTable): Check[] {
  const codes = rateCurrencies(table);
  const out: Check[] = [];
  for (let i = 0; i + 1 < codes.length; i++) {
    const a = codes[i] ?? "";
    const b = codes[i + 1] ?? "";
    const ab = crossRate(table, a, b);
    const ba = crossRate(table, b, a);
    if (!ab.ok || !ba.ok) {
      out.push({ group: "cross-rates", name: `${a}/${b}`, pass: false, detail: "no rate" });
      continue;
    }
    // a→b × b→a = 1 to the working precision (34 digits): compare the product's first 30 digits.
    const product = multiplyDecimal(ab.value, ba.value);
    const pass = /^(1\.0{28}|0\.9{28})/.test(product) || product === "1";
    out.push({
      group: "cross-rates",
      name: `${a}/${b}`,
      pass,
      detail: `${ab.value.slice(0, 14)} × ${ba.value.slice(0, 14)} ≈ ${product.slice(0, 20)}`,
    });
  }
  return out;
}

/** Exact product of two positive decimal strings. */
function multiplyDecimal(a: string, b: string): string {
  const [ai = "0", af = ""] = a.split(".");
  const [bi = "0", bf = ""] = b.split(".");
  const scale = af.length + bf.length;
  const digits = (BigInt(ai + af) * BigInt(bi + bf)).toString().padStart(scale + 1, "0");
  return scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
}

function splitChecks(): Check[] {
  const out: Check[] = [];
  for (const c of CURRENCIES) {
    const total = parseMoney("100", c.code);
    if (!total.ok) continue;
    for (const n of [3, 7]) {
      const parts = split(total.value, n);
      const back = sum(parts, c.code);
      const amounts = parts.map((p) => p.amount).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const spread = (amounts.at(-1) ?? 0n) - (amounts[0] ?? 0n);
      out.push({
        group: "splits",
        name: `${c.code} ÷ ${n}`,
        pass: back.amount === total.value.amount && spread <= 1n,
        detail: `${parts.map(toDecimalString).join(" + ")} = ${toDecimalString(back)}`,
      });
    }
  }
  return out;
}

function planPriceChecks(table: RateTable): Check[] {
  const out: Check[] = [];
  for (const code of ["USD", ...rateCurrencies(table).filter((c) => c !== "USD")])
    for (const plan of plans)
      for (const interval of ["monthly", "yearly"] as const) {
        const usd = parseMoney(planPriceUsd(plan, interval), "USD");
        const price = usd.ok ? (code === "USD" ? usd : convert(usd.value, code, table)) : usd;
        out.push({
          group: "plan-prices",
          name: `${plan.id} ${interval} ${code}`,
          pass: price.ok && price.value.amount >= 0n,
          detail: price.ok ? formatMoney(price.value, { locale: "en-US" }) : price.error.message,
        });
      }
  return out;
}

/** Runs every check against a rate table (the instance's current rates). */
export function runCurrencySuite(table: RateTable): Check[] {
  return [
    ...minorUnitChecks(),
    ...formattingChecks(),
    ...roundingChecks(),
    ...conversionChecks(table),
    ...crossRateChecks(table),
    ...splitChecks(),
    ...planPriceChecks(table),
  ];
}
