// Takes screenshots of pages in light and dark, desktop and phone widths, for a person to look at.
//   node scripts/screenshots.mjs http://localhost:3000 /out/dir /path1 /path2 ...
// With SHOTS_EMAIL and SHOTS_PASSWORD set, each context signs in first.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "./chromium.mjs";

const [base = "http://localhost:3000", outDir = "/tmp/shots", ...paths] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions);
for (const scheme of ["light", "dark"]) {
  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 375, height: 740 }],
  ]) {
    const context = await browser.newContext({ viewport, colorScheme: scheme });
    if (process.env.SHOTS_EMAIL) {
      await context.request.post(`${base}/api/auth/sign-in/email`, {
        data: { email: process.env.SHOTS_EMAIL, password: process.env.SHOTS_PASSWORD },
        headers: { Origin: base },
      });
    }
    const page = await context.newPage();
    for (const p of paths.length ? paths : ["/"]) {
      await page.goto(base + p, { waitUntil: "networkidle" });
      const name = `${p.replace(/[^a-z0-9]+/gi, "_") || "home"}-${scheme}-${label}.png`;
      await page.screenshot({ path: path.join(outDir, name), fullPage: label !== "desktop" });
    }
    await context.close();
  }
}
await browser.close();
console.log(`screenshots in ${outDir}`);
