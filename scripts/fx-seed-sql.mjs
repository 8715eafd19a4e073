// Prints the INSERT that fills fx_rates from the committed ECB snapshot
// (src/core/money/data/ecb-eurofxref.xml). Used once to write drizzle/0002_fx_rates.sql.
import { readFileSync } from "node:fs";

const xml = readFileSync("src/core/money/data/ecb-eurofxref.xml", "utf8");
const date = /time=['"](\d{4}-\d{2}-\d{2})['"]/.exec(xml)?.[1];
const rows = [...xml.matchAll(/currency=['"]([A-Z]{3})['"]\s+rate=['"]([0-9.]+)['"]/g)].map(
  ([, code, rate]) => `('${code}', ${rate}, '${date}')`,
);
if (!date || rows.length === 0) throw new Error("could not read the snapshot");
console.log(
  `-- ECB euro reference rates of ${date}, from src/core/money/data/ecb-eurofxref.xml\nINSERT INTO "fx_rates" ("currency", "rate", "rates_date") VALUES\n  ${rows.join(",\n  ")}\nON CONFLICT ("currency") DO NOTHING;`,
);
