// Takes screenshots of pages in light and dark, at 1280 and 360 px, for a person to look at.
//   node scripts/dev/screenshots.mjs http://localhost:3000 /out/dir /path1 /path2 ...
// With SHOTS_EMAIL and SHOTS_PASSWORD set, each context signs in first.
//
//   npm run screenshots [-- http://localhost:3000 [out-dir]]
// The whole product: every route of src/core/routes.ts, both themes, both widths, into
// screenshots/ (git-ignored). Public and auth routes are shot signed out; signed-in routes as the
// demo owner, admin routes as the demo admin (seeded data, password abacus-demo-2026). Needs the
// app running (`npm run dev` or `npm start`).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { tsImport } from "tsx/esm/api";
import { chromiumLaunchOptions } from "./chromium.mjs";

const VIEWPORTS = [
  ["1280", { width: 1280, height: 800 }],
  ["360", { width: 360, height: 740 }],
];
const DEMO_PASSWORD = "abacus-demo-2026";
/** Routes whose screen needs a query to show something. */
const OPEN = { "/checkout": "/checkout?plan=pro&interval=monthly&currency=USD" };

const argv = process.argv.slice(2);
const all = argv[0] === "--all";
if (all) argv.shift();
const [base = "http://localhost:3000", outDir = all ? "screenshots" : "/tmp/shots", ...paths] = argv;
mkdirSync(outDir, { recursive: true });

/** Groups of [paths, credentials or null]. */
async function plan() {
  if (!all) {
    const login = process.env.SHOTS_EMAIL
      ? { email: process.env.SHOTS_EMAIL, password: process.env.SHOTS_PASSWORD }
      : null;
    return [[paths.length ? paths : ["/"], login]];
  }
  const { ROUTES, needsSession } = await tsImport("../../src/core/routes.ts", import.meta.url);
  const open = (route) => OPEN[route.path] ?? route.path;
  return [
    [ROUTES.filter((r) => !needsSession(r.audience)).map(open), null],
    [
      ROUTES.filter((r) => needsSession(r.audience) && r.audience !== "admin").map(open),
      { email: "owner@abacus.local", password: DEMO_PASSWORD },
    ],
    [
      ROUTES.filter((r) => r.audience === "admin").map(open),
      { email: "admin@abacus.local", password: DEMO_PASSWORD },
    ],
  ];
}

const groups = await plan();
const browser = await chromium.launch(chromiumLaunchOptions);
let count = 0;
for (const scheme of ["light", "dark"]) {
  for (const [label, viewport] of VIEWPORTS) {
    for (const [group, login] of groups) {
      const context = await browser.newContext({ viewport, colorScheme: scheme });
      if (login) {
        const response = await context.request.post(`${base}/api/auth/sign-in/email`, {
          data: login,
          headers: { Origin: base },
        });
        if (!response.ok()) console.error(`sign-in as ${login.email} failed: ${response.status()}`);
      }
      const page = await context.newPage();
      for (const p of group) {
        await page.goto(base + p, { waitUntil: "networkidle" });
        const who = login ? `-${login.email.split("@")[0]}` : "";
        const name = `${
          p
            .replace(/\?.*$/, "")
            .replace(/^\//, "")
            .replace(/[^a-z0-9]+/gi, "_") || "home"
        }${who}-${scheme}-${label}.png`;
        // A full-page shot is taken without scrolling: sections that wait to be scrolled near
        // (content-visibility: auto, the docs) would come out blank, so they are drawn first.
        await page.addStyleTag({ content: "* { content-visibility: visible !important; }" });
        await page.screenshot({ path: path.join(outDir, name), fullPage: true });
        count += 1;
      }
      await context.close();
    }
  }
}
await browser.close();
console.log(`${count} screenshots in ${outDir}`);
