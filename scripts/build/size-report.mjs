// First-load JavaScript per page: the gzip size of every script the page's HTML loads
// (`noModule` polyfills excluded), measured against the production build served for real.
//
//   npm run build && npm run size [-- /path /other?query ...]
//   NEXT_DIST_DIR=.next-x npm run size   measures the build in .next-x (next.config reads the same variable)
//   SIZE_SIGNED_IN=1 npm run size -- /checkout   seeds the demo data and measures as the demo owner
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { gzipSync } from "node:zlib";

const defaults = ["/", "/pricing", "/docs", "/contact", "/calculator"];
const paths = process.argv.slice(2).length ? process.argv.slice(2) : defaults;
const distDir = process.env.NEXT_DIST_DIR || ".next";
const signedIn = process.env.SIZE_SIGNED_IN === "1";
if (!existsSync(path.join(distDir, "BUILD_ID"))) {
  console.error(`No production build in ${distDir}: run \`npm run build\` first.`);
  process.exit(1);
}

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const { port: p } = s.address();
    s.close(() => resolve(p));
  });
});
const base = `http://localhost:${port}`;
const server = spawn(
  "node",
  [
    "scripts/db/run-with-db.mjs",
    "--data",
    ".test-data/size",
    "--fresh",
    "--migrate",
    ...(signedIn ? ["--seed"] : []),
    "node",
    "dist/server.mjs",
  ],
  { env: { ...process.env, PORT: String(port), NODE_ENV: "production" }, stdio: "ignore", detached: true },
);
const stop = () => {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {}
};
process.on("exit", stop);

for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {}
  if (i > 120) throw new Error("the server did not start");
  await new Promise((r) => setTimeout(r, 500));
}

// Signed-in pages are measured as the seeded demo owner (README: demo accounts).
let cookie = "";
if (signedIn) {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: "owner@abacus.local", password: "abacus-demo-2026" }),
  });
  if (!response.ok) throw new Error(`sign-in for the size report failed: HTTP ${response.status}`);
  cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

const cache = new Map();
async function gzipSize(src) {
  if (!cache.has(src)) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    cache.set(src, gzipSync(body, { level: 9 }).length);
  }
  return cache.get(src);
}

const rows = [];
for (const path of paths) {
  const page = await fetch(base + path, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  if (page.status !== 200)
    throw new Error(
      `${path} answered ${page.status}${signedIn ? "" : " (signed-in page? set SIZE_SIGNED_IN=1)"}`,
    );
  const html = await page.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)]
    .map((m) => m[1])
    .filter((attrs) => !/\bnoModule\b|\bnomodule\b/i.test(attrs))
    .map((attrs) => /\bsrc="([^"]+)"/.exec(attrs)?.[1])
    .filter(Boolean);
  const unique = [...new Set(scripts)];
  let total = 0;
  for (const src of unique) total += await gzipSize(src);
  // Scripts the HTML preloads (e.g. the chunk of a `next/dynamic` component rendered on the server,
  // which hydration needs at once) are fetched at load too: reported beside the script tags.
  const preloads = [...html.matchAll(/<link\b([^>]*)>/g)]
    .map((m) => m[1])
    .filter((attrs) => /\bas="script"/.test(attrs) || /\brel="modulepreload"/.test(attrs))
    .map((attrs) => /\bhref="([^"]+)"/.exec(attrs)?.[1])
    .filter((href) => href && !unique.includes(href));
  const preloaded = [...new Set(preloads)];
  let extra = 0;
  for (const href of preloaded) extra += await gzipSize(href);
  rows.push({
    path,
    scripts: unique.length,
    kb: (total / 1024).toFixed(1),
    preloads: preloaded.length,
    extraKb: (extra / 1024).toFixed(1),
    allKb: ((total + extra) / 1024).toFixed(1),
  });
}
console.log("First-load JavaScript (gzip, noModule excluded): script tags, + preloaded scripts = total");
for (const row of rows)
  console.log(
    `  ${row.path.padEnd(28)} ${row.kb.padStart(7)} KB  (${row.scripts} scripts)` +
      `  + ${row.extraKb.padStart(5)} KB preloaded (${row.preloads})  = ${row.allKb.padStart(7)} KB`,
  );
stop();
process.exit(0);
