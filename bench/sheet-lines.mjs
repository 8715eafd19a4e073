/**
 * The 500-line sheet of the sheet benchmarks (bench/sheet.mjs in Node, bench/sheet-browser.mjs in
 * Chromium): headings, named amounts in EUR, USD and CHF, units and durations, percentages, references
 * to earlier lines and names, prev, subtotals and a total.
 */
export function sheetLines() {
  const lines = [];
  for (let part = 0; lines.length < 490; part++) {
    lines.push(`# Part ${part + 1}`);
    for (let i = 0; i < 40; i++) {
      const n = lines.length;
      const kind = i % 8;
      if (kind === 0) lines.push(`item${n} = ${100 + n}.25 EUR`);
      else if (kind === 1) lines.push(`${(n * 7) % 1000}.5 USD in EUR`);
      else if (kind === 2) lines.push(`line${n - 1} + 19%`);
      else if (kind === 3) lines.push(`${1 + (n % 9)} h ${n % 60} min in min`);
      else if (kind === 4) lines.push(`${n} km in m // distance`);
      else if (kind === 5) lines.push(`item${n - 5} * 3`);
      else if (kind === 6) lines.push(`20% off ${n}.90 CHF`);
      else lines.push(`prev / 4`);
    }
    lines.push("subtotal");
  }
  lines.push("total");
  return lines.slice(0, 499).concat("total");
}
