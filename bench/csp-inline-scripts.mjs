#!/usr/bin/env node
// Measures what a hash-based CSP (script-src 'sha256-…' instead of 'unsafe-inline') would take:
// the inline scripts of every prerendered page in the build, and, from a running server, whether
// the inline scripts of the server-rendered pages change from one request to the next.
//
//   npx next build && node bench/csp-inline-scripts.mjs [--url http://127.0.0.1:3304]
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { loopbackOnly, parseArgs } from "./lib/probe-kit.mjs";

const args = parseArgs(process.argv.slice(2), { url: "", dir: process.env.NEXT_DIST_DIR || ".next" });

function inlineScripts(html) {
  const out = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    if (match[1]) out.push(match[1]);
  }
  return out;
}
const sha = (text) => createHash("sha256").update(text).digest("base64");

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

const appDir = path.join(args.dir, "server", "app");
const files = walk(appDir).filter((file) => file.endsWith(".html"));
const all = new Set();
let total = 0;
let bytes = 0;
console.log("prerendered pages (build output):");
for (const file of files) {
  const scripts = inlineScripts(readFileSync(file, "utf8"));
  total += scripts.length;
  for (const s of scripts) {
    all.add(sha(s));
    bytes += s.length;
  }
  console.log(
    `  ${path.relative(appDir, file).padEnd(28)} ${String(scripts.length).padStart(3)} inline scripts, ${scripts.filter((s) => s.includes("__next_f")).length} of them RSC payload`,
  );
}
console.log(
  `  ${files.length} pages, ${total} inline scripts (${(bytes / 1024).toFixed(0)} KB), ${all.size} distinct sha256 hashes`,
);

if (args.url) {
  const origin = loopbackOnly(args.url);
  console.log("server-rendered pages (two requests each):");
  for (const page of ["/pricing", "/calculator", "/sign-in"]) {
    const [a, b] = await Promise.all(
      [0, 1].map(async () => inlineScripts(await (await fetch(`${origin}${page}`)).text()).map(sha)),
    );
    const same = a.length === b.length && a.every((h, i) => h === b[i]);
    const shared = a.filter((h) => b.includes(h)).length;
    console.log(
      `  ${page.padEnd(12)} ${a.length} inline scripts; ${same ? "identical" : `differ between requests (${shared}/${a.length} hashes shared)`}`,
    );
  }
}
