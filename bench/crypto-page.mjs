// The crypto workbench measured as a person uses it, in the system Chromium against the production build:
//
//   1. File hashing: a 100 MB random file hashed in the page (from the click on "Hash" to the digest on
//      screen: worker start, reading the file, hashing) against `openssl dgst` on the same file.
//   2. The size (gzip) of the scripts each lazily loaded tool fetches when it is first opened.
//
//   npm run build && node bench/crypto-page.mjs [--size 100000000] [--runs 3]
//
// Not a test: numbers depend on the machine and its load; run it on a quiet machine and read the table.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../scripts/dev/chromium.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SIZE = arg("size", 100_000_000);
const RUNS = arg("runs", 3);
const distDir = process.env.NEXT_DIST_DIR || ".next";
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
    ".test-data/bench",
    "--fresh",
    "--migrate",
    "node",
    "dist/server.mjs",
  ],
  { env: { ...process.env, PORT: String(port), NODE_ENV: "production" }, stdio: "ignore", detached: true },
);
const tmp = mkdtempSync(path.join(tmpdir(), "abacus-bench-"));
const cleanup = () => {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {}
  rmSync(tmp, { recursive: true, force: true });
};
process.on("exit", cleanup);
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {}
  if (i > 120) throw new Error("the server did not start");
  await new Promise((r) => setTimeout(r, 500));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const file = path.join(tmp, "input.bin");
writeFileSync(file, randomBytes(SIZE));

const OPENSSL = { "SHA-256": "sha256", "SHA-512": "sha512", "SHA3-256": "sha3-256", BLAKE3: null };

function opensslTime(name) {
  const times = [];
  let digest = "";
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    const out = execFileSync("openssl", ["dgst", `-${name}`, "-r", file]).toString();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    digest = out.split(" ")[0];
  }
  return { ms: median(times), digest };
}

const loadBefore = loadavg()
  .map((x) => x.toFixed(1))
  .join(" ");
const step = (what) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${what}`);
step("server up; starting the browser");
const browser = await chromium.launch(chromiumLaunchOptions);
const page = await browser.newPage();

// ---- lazily loaded tools: what each fetches when first opened -----------------------------------------
const seen = new Map();
page.on("response", async (r) => {
  const url = new URL(r.url());
  if (url.pathname.endsWith(".js") && !seen.has(url.pathname)) {
    seen.set(
      url.pathname,
      gzipSync(Buffer.from(await r.body().catch(() => Buffer.alloc(0))), { level: 9 }).length,
    );
  }
});
await page.goto(`${base}/calculator?mode=crypto&tool=hash`);
await page.locator('[data-tool="hash"]').waitFor();
await page.waitForLoadState("networkidle");
const chunkRows = [];
for (const [id, label] of [
  ["hkdf", "HKDF"],
  ["convert", "Key conversion"],
  ["encrypt", "Symmetric encryption"],
  ["certs", "Certificates"],
]) {
  step(`opening ${label}`);
  const before = new Set(seen.keys());
  const link = page.getByRole("navigation", { name: "Crypto tools" }).getByRole("link", { name: label });
  if ((await link.count()) === 0) {
    chunkRows.push([`${label} (not in this build)`, 0, 0]);
    continue;
  }
  await link.click();
  await page.locator(`[data-tool="${id}"] form, [data-tool="${id}"] section`).first().waitFor();
  await page.waitForLoadState("networkidle");
  const fresh = [...seen.keys()].filter((k) => !before.has(k));
  chunkRows.push([label, fresh.length, fresh.reduce((n, k) => n + (seen.get(k) ?? 0), 0)]);
}

// ---- file hashing -----------------------------------------------------------------------------------
await page.goto(`${base}/calculator?mode=crypto&tool=hash`);
const tool = page.locator('[data-tool="hash"]');
await tool.getByLabel("Input as").selectOption("file");
await tool.getByLabel("Input", { exact: true }).setInputFiles(file);
const rows = [];
for (const [alg, name] of Object.entries(OPENSSL)) {
  await tool.getByLabel("Algorithm").selectOption(alg);
  const times = [];
  let digest = "";
  for (let i = 0; i < RUNS; i++) {
    step(`${alg} run ${i + 1}`);
    // Timed inside the page, from the click to the moment the new digest is in the document (a
    // MutationObserver on the result), so Playwright's polling adds nothing.
    const { ms, text } = await tool.evaluate(
      (root) =>
        new Promise((resolve) => {
          const button = [...root.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Hash");
          const label = [...root.querySelectorAll("label")].find((l) => l.textContent?.trim() === "Digest");
          const output = () => (label ? document.getElementById(label.htmlFor) : null);
          const isDigest = (text) => /^[0-9a-f]{32,}$/.test(text);
          // A new run clears the old digest first: wait for that, then for the new one.
          let cleared = !isDigest(output()?.textContent ?? "");
          let t0 = 0;
          const observer = new MutationObserver(() => {
            const text = output()?.textContent ?? "";
            if (!isDigest(text)) cleared = true;
            else if (cleared) {
              observer.disconnect();
              resolve({ ms: performance.now() - t0, text });
            }
          });
          observer.observe(root, { subtree: true, childList: true, characterData: true });
          t0 = performance.now();
          button?.click();
        }),
    );
    await tool.getByRole("button", { name: "Hash", exact: true }).and(page.locator(":enabled")).waitFor();
    times.push(ms);
    digest = text;
  }
  const ref = name ? opensslTime(name) : null;
  if (ref && ref.digest !== digest) throw new Error(`${alg}: the page gave ${digest}, openssl ${ref.digest}`);
  rows.push([alg, median(times), ref?.ms]);
}
await browser.close();

const mb = (SIZE / 1e6).toFixed(0);
console.log(
  `\nHashing ${mb} MB (${SIZE.toLocaleString("en-US")} bytes), median of ${RUNS}, ${new Date().toISOString()}, load average ${loadBefore} before and ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} after\n`,
);
console.log("| Algorithm | In the page | openssl dgst | Page / OpenSSL |");
console.log("|---|---:|---:|---:|");
for (const [alg, page, ossl] of rows) {
  console.log(
    `| ${alg} | ${(page / 1000).toFixed(2)} s | ${ossl ? `${(ossl / 1000).toFixed(2)} s` : "not in OpenSSL 3.0"} | ${ossl ? `${(page / ossl).toFixed(1)}×` : "–"} |`,
  );
}
console.log("\nLazily loaded tools: scripts fetched when first opened (gzip)\n");
console.log("| Tool | Scripts | gzip |");
console.log("|---|---:|---:|");
for (const [label, n, bytes] of chunkRows)
  console.log(`| ${label} | ${n} | ${(bytes / 1024).toFixed(1)} KiB |`);
// The server child keeps the event loop alive: end here (the exit handler stops it).
process.exit(0);
