/**
 * Crypto workbench throughput against Node's own `node:crypto` (OpenSSL) in the same process.
 * Run: npx tsx bench/crypto.bench.ts
 */
import * as nodeCrypto from "node:crypto";
import { createHash, generateKeyPair, hash, sign, verify } from "../src/core/crypto/index";

const MiB = 1024 * 1024;

async function timed<T>(fn: () => Promise<T> | T): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Runs `op` repeatedly for about `ms` milliseconds; returns operations per second. */
async function rate(op: () => Promise<unknown> | unknown, ms = 2000): Promise<number> {
  for (let i = 0; i < 20; i++) await op(); // warm-up
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    await op();
    n++;
  }
  return (n * 1000) / (performance.now() - start);
}

const fmt = (x: number, d = 1) => x.toFixed(d);
const rows: string[][] = [];
function row(name: string, ours: number, node: number, unit: string) {
  rows.push([name, `${fmt(ours)} ${unit}`, `${fmt(node)} ${unit}`, `${fmt(ours / node, 3)}×`]);
}

async function main() {
  console.log(
    `Node ${process.version}, ${process.platform}/${process.arch}, OpenSSL ${process.versions.openssl}`,
  );

  // ---- SHA-256 over 64 MiB ----
  const data = nodeCrypto.randomBytes(64 * MiB);
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  await hash("SHA-256", bytes.subarray(0, MiB));
  const best = async (fn: () => Promise<unknown> | unknown) => {
    let b = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) b = Math.min(b, await timed(fn));
    return b;
  };
  const nodeMs = await best(() => nodeCrypto.createHash("sha256").update(data).digest());
  const oneShotMs = await best(() => hash("SHA-256", bytes));
  const streamMs = await best(() => {
    const h = createHash("SHA-256");
    for (let off = 0; off < bytes.length; off += 4 * MiB) h.update(bytes.subarray(off, off + 4 * MiB));
    return h.digest();
  });
  const mbps = (ms: number) => 64 / (ms / 1000);
  row("SHA-256 64 MiB, hash() one-shot (WebCrypto)", mbps(oneShotMs), mbps(nodeMs), "MiB/s");
  row("SHA-256 64 MiB, createHash() streaming (noble)", mbps(streamMs), mbps(nodeMs), "MiB/s");

  // ---- ECDSA P-256 sign + verify ----
  const msg = new TextEncoder().encode("The quick brown fox jumps over the lazy dog");
  const ec = await generateKeyPair({ type: "EC", curve: "P-256" });
  const nodeEc = nodeCrypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ours = await rate(async () => {
    const s = await sign(ec.privateKey, msg, { alg: "ECDSA" });
    if (!(await verify(ec.publicKey, msg, s, { alg: "ECDSA" }))) throw new Error("verify failed");
  });
  const node = await rate(() => {
    const s = nodeCrypto.sign("sha256", msg, nodeEc.privateKey);
    if (!nodeCrypto.verify("sha256", msg, nodeEc.publicKey, s)) throw new Error("verify failed");
  });
  row("ECDSA P-256 sign+verify (WebCrypto, DER)", ours, node, "pairs/s");

  // ---- Ed25519 sign + verify ----
  const ed = await generateKeyPair({ type: "Ed25519" });
  const nodeEd = nodeCrypto.generateKeyPairSync("ed25519");
  const oursEd = await rate(async () => {
    const s = await sign(ed.privateKey, msg, { alg: "Ed25519" });
    if (!(await verify(ed.publicKey, msg, s, { alg: "Ed25519" }))) throw new Error("verify failed");
  });
  const nodeEdRate = await rate(() => {
    const s = nodeCrypto.sign(null, msg, nodeEd.privateKey);
    if (!nodeCrypto.verify(null, msg, nodeEd.publicKey, s)) throw new Error("verify failed");
  });
  row("Ed25519 sign+verify (WebCrypto)", oursEd, nodeEdRate, "pairs/s");

  const { setForceNoble } = await import("../src/core/crypto/webcrypto");
  setForceNoble(true);
  const oursEdNoble = await rate(async () => {
    const s = await sign(ed.privateKey, msg, { alg: "Ed25519" });
    if (!(await verify(ed.publicKey, msg, s, { alg: "Ed25519" }))) throw new Error("verify failed");
  });
  setForceNoble(false);
  row("Ed25519 sign+verify (noble fallback)", oursEdNoble, nodeEdRate, "pairs/s");

  const widths = [0, 1, 2, 3].map((i) =>
    Math.max(...[["", "ours", "node:crypto", "ratio"], ...rows].map((r) => (r[i] ?? "").length)),
  );
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  console.log(line(["", "ours", "node:crypto", "ratio"]));
  for (const r of rows) console.log(line(r));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
