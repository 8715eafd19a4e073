#!/usr/bin/env node
// When does a signed-in visitor's header show its controls on a static page, and does anything
// shift? Signs in as the demo owner, then loads each page at 4x CPU slowdown (as Lighthouse's mobile
// preset) and reports, per page, the medians of: first contentful paint, the moment the header's
// signed-in controls are drawn (the stand-in or the real menus), the moment the real menus are
// there, and the cumulative layout shift.
//
//   node bench/header-paint.mjs --base http://127.0.0.1:3000 [--pages /pricing,/docs] [--runs 5]
//
// Needs a running production build with the demo data (npm start seeds it).
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { chromiumLaunchOptions } from "../scripts/chromium.mjs";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "http://127.0.0.1:3000" },
    pages: { type: "string", default: "/,/pricing,/docs,/contact" },
    runs: { type: "string", default: "5" },
  },
});

const watch = () => {
  const seen = { fcp: null, drawn: null, menus: null, cls: 0 };
  window.__headerPaint = seen;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === "first-contentful-paint") seen.fcp = e.startTime;
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) seen.cls += e.value;
  }).observe({ type: "layout-shift", buffered: true });
  const shown = (selector) => {
    const el = document.querySelector(selector);
    return el !== null && el.getClientRects().length > 0;
  };
  const tick = () => {
    const now = performance.now();
    if (seen.menus === null && shown('header [aria-label="Account menu"]')) seen.menus = now;
    if (seen.drawn === null && (seen.menus !== null || shown("header .viewer-initials"))) seen.drawn = now;
    if (seen.menus === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const ms = (x) => (x === null ? "never" : `${Math.round(x)} ms`);

const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const signIn = await context.newPage();
  await signIn.goto(`${args.base}/sign-in`);
  await signIn.getByLabel("Email").fill("owner@abacus.local");
  await signIn.getByLabel("Password", { exact: true }).fill("abacus-demo-2026");
  await signIn.getByRole("button", { name: "Sign in", exact: true }).click();
  await signIn.waitForURL((url) => !url.pathname.startsWith("/sign-in"), { timeout: 60_000 });
  await signIn.waitForLoadState("networkidle");
  await signIn.close();
  await context.addInitScript(watch);
  console.log(`header paint at 4x CPU slowdown, ${args.runs} runs per page (medians)`);
  console.log("page        FCP        controls drawn   real menus   CLS");
  for (const path of args.pages.split(",")) {
    const rows = [];
    for (let i = 0; i < Number(args.runs); i++) {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      await page.goto(`${args.base}${path}`);
      await page.waitForFunction(() => window.__headerPaint?.menus !== null, null, { timeout: 60_000 });
      await page.waitForLoadState("networkidle");
      rows.push(await page.evaluate(() => window.__headerPaint));
      await page.close();
    }
    const col = (k) => median(rows.map((r) => r[k]));
    const cls = Math.max(...rows.map((r) => r.cls));
    console.log(
      `${path.padEnd(11)} ${ms(col("fcp")).padEnd(10)} ${ms(col("drawn")).padEnd(16)} ${ms(col("menus")).padEnd(12)} ${cls.toFixed(3)} (max)`,
    );
  }
} finally {
  await browser.close();
}
