// Regenerates src/core/money/data/cash-rounding.json (the cash increments the calculator and the
// money tools round to) from the installed cldr-core package's supplemental currency data:
//   npx tsx scripts/build/generate-cash-rounding.ts
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cashIncrementsFromCldr } from "../../src/core/money/cash";

const require = createRequire(import.meta.url);
const pkg = require("cldr-core/package.json") as { version: string };
const data = JSON.parse(readFileSync(require.resolve("cldr-core/supplemental/currencyData.json"), "utf8"));
const increments = cashIncrementsFromCldr(data.supplemental.currencyData.fractions);
const out = {
  source: `cldr-core ${pkg.version}, supplemental/currencyData.json (fractions: _cashRounding, _cashDigits)`,
  increments,
};
writeFileSync(
  new URL("../../src/core/money/data/cash-rounding.json", import.meta.url),
  `${JSON.stringify(out, null, 2)}\n`,
);
console.log(`${Object.keys(increments).length} currencies with a cash increment`);
