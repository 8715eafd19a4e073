// Shared by the hostile-input scripts in bench/: a health sampler (p99 of `/api/health` while an
// attack runs), the server process's RSS and CPU from /proc, and small HTTP helpers. Loopback only.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { Worker } from "node:worker_threads";

export function parseArgs(argv, defaults) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i]?.replace(/^--/, "");
    if (key && key in out) out[key] = argv[++i];
  }
  return out;
}

/** Refuses anything but a loopback URL: these scripts attack a server, ours only. */
export function loopbackOnly(base) {
  const url = new URL(base);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
    console.error(`refusing ${base}: these scripts only run against a loopback address`);
    process.exit(2);
  }
  return url.origin;
}

/** The pid of the process listening on the port (the `node dist/server.mjs` process). */
export function listenerPid(port) {
  const inodes = new Set();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== "0A") continue;
      const localPort = Number.parseInt(cols[1].split(":")[1] ?? "", 16);
      if (localPort === port) inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const pid of readdirNumeric("/proc")) {
    try {
      for (const fd of readdirNumeric(`/proc/${pid}/fd`)) {
        const link = readlinkSafe(`/proc/${pid}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(link ?? "")?.[1];
        if (inode && inodes.has(inode)) return pid;
      }
    } catch {}
  }
  return undefined;
}

function readdirNumeric(dir) {
  try {
    return readdirSync(dir).filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
}
function readlinkSafe(path) {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

export function procStats(pid) {
  if (!pid) return { rssMb: Number.NaN, cpuSeconds: Number.NaN };
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { rssMb: rssKb / 1024, cpuSeconds: ticks / 100 };
  } catch {
    return { rssMb: Number.NaN, cpuSeconds: Number.NaN };
  }
}

/**
 * Samples `/api/health` one request at a time (in a worker thread, see health-sampler.mjs) and the
 * server's RSS, until stop() is called.
 */
export function startMonitor(origin, pid, intervalMs = 50) {
  let peakRss = procStats(pid).rssMb;
  const cpuStart = procStats(pid).cpuSeconds;
  const rssTimer = setInterval(() => {
    const { rssMb } = procStats(pid);
    if (rssMb > peakRss || Number.isNaN(peakRss)) peakRss = rssMb;
  }, 100);
  const worker = new Worker(new URL("./health-sampler.mjs", import.meta.url), {
    workerData: { origin, intervalMs },
  });
  const result = new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return async function stop() {
    worker.postMessage("stop");
    const { latencies, failures } = await result;
    await worker.terminate();
    clearInterval(rssTimer);
    const sorted = [...latencies].sort((a, b) => a - b);
    const p = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
    return {
      healthSamples: sorted.length,
      // Health answers that were not 200 (or no answer at all): a phase with any of them failed.
      healthFailures: failures,
      healthP50: p(0.5),
      healthP99: p(0.99),
      healthMax: sorted[sorted.length - 1] ?? Number.NaN,
      peakRssMb: peakRss,
      cpuSeconds: procStats(pid).cpuSeconds - cpuStart,
    };
  };
}

/**
 * A raw HTTP request (node:http, so any header can be sent, Host and Origin included). Resolves with
 * status, headers, body size and the first bytes of the body.
 */
export function raw(origin, path, { method = "GET", headers = {}, body, timeoutMs = 120_000 } = {}) {
  const url = new URL(path, origin);
  return new Promise((resolve) => {
    const started = performance.now();
    const req = httpRequest(
      url,
      { method, headers: { ...headers, ...(body ? { "content-length": body.length } : {}) } },
      (res) => {
        let size = 0;
        const head = [];
        res.on("data", (chunk) => {
          size += chunk.length;
          if (head.reduce((n, c) => n + c.length, 0) < 2048) head.push(chunk);
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            size,
            text: Buffer.concat(head).toString("utf8").slice(0, 2048),
            ms: performance.now() - started,
          }),
        );
        res.on("error", () =>
          resolve({ status: 0, headers: {}, size, text: "", ms: performance.now() - started }),
        );
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error("timeout")));
    req.on("error", (error) =>
      resolve({
        status: 0,
        headers: {},
        size: 0,
        text: String(error.message),
        ms: performance.now() - started,
      }),
    );
    if (body) req.end(body);
    else req.end();
  });
}

export const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
