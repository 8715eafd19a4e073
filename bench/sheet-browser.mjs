#!/usr/bin/env node
/**
 * Sheet recompute in the browser: `node bench/sheet-browser.mjs --base http://127.0.0.1:3311 [--edits 41]`
 *
 * Opens the signed-out notebook (/calculator) in the system Chromium, fills it with the 500-line sheet
 * of bench/sheet.mjs (headings, named amounts in EUR, USD and CHF, units and durations, percentages,
 * references by name and number, prev, subtotals, a total), waits for every result, then makes
 * one-character edits with real key presses: each replaces one digit of an amount in the middle of the
 * sheet (the caret selects the digit, one key types the new one). Measured per edit, on the page's
 * clock: from the keydown event's time stamp to the frame painted after the edited line's result row
 * shows its new value and the notebook is no longer busy (requestAnimationFrame, then a task). The
 * evaluation runs on the main thread (no worker). Also reported: how many lines the engine evaluated
 * (the edited line and its readers).
 *
 * Needs a running production build with its database (see the README), e.g.
 *   PORT=3311 node scripts/db/run-with-db.mjs --data .test-data/bench-sheet --fresh --migrate --seed node dist/server.mjs
 */
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../scripts/dev/chromium.mjs";
import { sheetLines } from "./sheet-lines.mjs";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "http://127.0.0.1:3311" },
    edits: { type: "string", default: "41" },
    trace: { type: "string" },
  },
});
const edits = Number(args.edits);
const lines = sheetLines();
const target = lines.findIndex((l, i) => i > 240 && l.startsWith("item"));

const browser = await chromium.launch(chromiumLaunchOptions);
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
await page.goto(`${args.base}/calculator`);
const box = page.getByRole("textbox", { name: /^Sheet/ });
await box.fill(lines.join("\n"));
await page.locator(`[data-testid^="line-${lines.length}-"]`).first().waitFor({ timeout: 60_000 });
await page.waitForFunction(() => !document.querySelector('ol[aria-busy="true"]'));
await page.waitForTimeout(1000);
if (args.trace) await browser.startTracing(page, { path: args.trace, screenshots: false });

const times = [];
for (let k = 0; k < edits; k++) {
  // select the tenths digit of the target line's amount and type a different one
  const { digit } = await page.evaluate(
    ([row, k]) => {
      const el = document.querySelector("textarea");
      const all = el.value.split("\n");
      const start = all.slice(0, row).reduce((n, l) => n + l.length + 1, 0);
      const at = start + all[row].search(/\.\d+ EUR/) + 1;
      const old = Number(el.value[at]);
      el.focus();
      el.setSelectionRange(at, at + 1);
      const before = document.querySelector(`[data-testid="line-${row + 1}-result"]`)?.textContent ?? "";
      const edit = { before, row, start: null, done: null };
      window.__edit = edit;
      el.addEventListener("keydown", (e) => (edit.start = e.timeStamp), { once: true, capture: true });
      // the moment the row shows its new value and nothing is pending, then the frame that paints it
      const list = document.querySelector('ol[aria-label="Results"]');
      const observer = new MutationObserver(() => {
        const now = document.querySelector(`[data-testid="line-${row + 1}-result"]`)?.textContent ?? "";
        if (now === before || list.getAttribute("aria-busy") === "true") return;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => (edit.done = performance.now()), 0));
      });
      observer.observe(list, { subtree: true, childList: true, characterData: true, attributes: true });
      return { digit: String((old + 1 + (k % 8)) % 10) };
    },
    [target, k],
  );
  await page.keyboard.press(digit);
  const ms = await page.evaluate(async () => {
    const edit = window.__edit;
    while (edit.done === null) await new Promise((r) => setTimeout(r, 5));
    return edit.done - edit.start;
  });
  times.push(ms);
  await page.waitForTimeout(300);
}
if (args.trace) await browser.stopTracing();
const evaluated = await page.evaluate(() =>
  document.querySelector("[data-sheet-evaluated]")?.getAttribute("data-sheet-evaluated"),
);
await browser.close();

times.sort((a, b) => a - b);
const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
console.log(`Sheet recompute in the browser (Chromium ${browser.version()}, main thread, ${args.base})`);
console.log(`sheet: ${lines.length} lines; one-character edit of line ${target + 1}, ${edits} times`);
console.log(
  `keydown to results painted: median ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms, min ${times[0].toFixed(1)}, max ${times.at(-1).toFixed(1)} (target: median under 16 ms)`,
);
if (evaluated) console.log(`lines evaluated by the last edit: ${evaluated} of ${lines.length}`);
