import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD, demo } from "./auth-helpers";

// /metrics of the real server (dist/server.mjs): off on the suite's server (no METRICS_TOKEN);
// on a server of its own (its own free port, the suite's database) bearer-only, with bounded
// labels, valid for promtool, and scraped by a real Prometheus (Debian's, on 127.0.0.1, with a
// temporary config and data folder). Every wait is bounded and says what it waited for.

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Polls `check` every 250 ms for at most `ms`; fails with `what` and the last value seen. */
async function waitFor<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? ` (last: ${String(last)})` : ""}`);
}

const TOKEN = `metrics-${randomBytes(12).toString("hex")}`;
const children: ChildProcess[] = [];
let origin = "";
let output = "";

/** The series of a scrape (name and labels of each sample line), optionally only those named `prefix*`. */
function series(text: string, prefix = ""): string[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#") && line.startsWith(prefix))
    .map((line) => line.slice(0, line.lastIndexOf(" ")));
}

async function scrape(): Promise<string> {
  const response = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}

test("/metrics is off on a server without METRICS_TOKEN", async ({ baseURL }) => {
  const response = await fetch(`${baseURL}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(404);
  expect(await response.text()).not.toContain("abacus_");
});

test.describe
  .serial("with METRICS_TOKEN", () => {
    test.beforeAll(async () => {
      test.setTimeout(90_000);
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      const child = spawn("node", ["dist/server.mjs"], {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: "127.0.0.1",
          NODE_ENV: "production",
          APP_URL: origin,
          METRICS_TOKEN: TOKEN,
          // The suite browses and signs in from 127.0.0.1 on the same database (see playwright.config.ts).
          PAGE_VIEWS_PER_CLIENT_LIMIT: "100000",
          AUTH_SIGN_IN_LIMIT: "1000",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      child.stdout?.on("data", (d) => {
        output += d;
      });
      child.stderr?.on("data", (d) => {
        output += d;
      });
      await waitFor("the server to say it is ready", 60_000, async () => {
        if (child.exitCode !== null) throw new Error(`the server exited:\n${output.slice(-2000)}`);
        return output.includes("ready on") ? true : undefined;
      });
    });
    test.afterAll(() => {
      for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    });

    test("answers only the bearer token, with the pool, queue and request metrics", async () => {
      for (const authorization of [undefined, `Bearer ${TOKEN}x`, TOKEN, "Basic Zm9vOmJhcg=="]) {
        const response = await fetch(
          `${origin}/metrics`,
          authorization ? { headers: { authorization } } : {},
        );
        expect(response.status, String(authorization)).toBe(404);
      }
      const response = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.headers.get("content-type")).toContain("text/plain");
      const text = await response.text();
      expect(text).toMatch(/^abacus_db_pool_size \d+$/m);
      expect(text).toMatch(/^abacus_db_pool_in_use \d+$/m);
      expect(text).toMatch(/^abacus_db_pool_waiting \d+$/m);
      expect(text).toMatch(/^abacus_db_pool_waits_total \d+$/m);
      // The billing clock (on by default) created graphile-worker's schema at start.
      for (const state of ["due", "scheduled", "running", "failed"])
        expect(text).toMatch(new RegExp(`^abacus_jobs\\{state="${state}"\\} \\d+$`, "m"));
      expect(text).toMatch(/^abacus_jobs_oldest_due_age_seconds [\d.e+-]+$/m);
      expect(text).toContain('abacus_http_requests_total{route="/api/health",method="GET",status="200"}');
      expect(text).toContain("nodejs_eventloop_lag_seconds");
    });

    test("1,000 distinct URLs add no series: labels are route patterns, never paths", async () => {
      test.setTimeout(90_000);
      const tag = `zz${randomBytes(4).toString("hex")}`;
      const shapes = (i: number): [string, string] => {
        const r = `${tag}${i}`;
        const all: [string, string][] = [
          ["GET", `/no-such-page-${r}`],
          ["GET", `/pricing?currency=${r}&interval=monthly`],
          ["GET", `/docs/${r}`],
          ["GET", `/api/no-such-${r}?q=${r}`],
          ["GET", `/_next/static/chunks/${r}.js`],
          ["GET", `/api/health/${r}`],
          ["HEAD", `/${r}`],
          ["POST", `/no-such-page-${r}`],
        ];
        return all[i % all.length] as [string, string];
      };
      const run = async (from: number, count: number) => {
        let next = from;
        const worker = async () => {
          while (next < from + count) {
            const [method, url] = shapes(next++);
            const response = await fetch(`${origin}${url}`, { method, redirect: "manual" });
            await response.arrayBuffer();
          }
        };
        await Promise.all(Array.from({ length: 4 }, worker));
      };
      // Every shape's route, method and status once, then the measured thousand.
      await run(0, 80);
      await scrape();
      const before = series(await scrape(), "abacus_");
      await run(80, 1000);
      await scrape();
      const text = await scrape();
      const after = series(text, "abacus_");
      expect(text).not.toContain(tag);
      expect(after.filter((s) => !before.includes(s))).toEqual([]);
      expect(after.length).toBe(before.length);
      const routes = new Set(
        after.flatMap((s) => /route="([^"]*)"/.exec(s)?.[1] ?? []).filter((route) => route !== ""),
      );
      expect([...routes].every((route) => route.startsWith("/") || route === "(unmatched)")).toBe(true);
      test.info().annotations.push({
        type: "series",
        description: `${after.length} abacus_ series after 1,080 distinct URLs (${routes.size} route patterns)`,
      });
    });

    test("promtool check metrics accepts a real scrape", async () => {
      const text = await scrape();
      const checked = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
        const child = spawn("promtool", ["check", "metrics"], { stdio: ["pipe", "pipe", "pipe"] });
        let out = "";
        child.stdout.on("data", (d) => {
          out += d;
        });
        child.stderr.on("data", (d) => {
          out += d;
        });
        child.once("error", reject);
        child.once("exit", (code) => resolve({ code, out }));
        child.stdin.end(text);
      });
      test.info().annotations.push({ type: "promtool", description: checked.out.trim() || "(no findings)" });
      expect(checked.out.trim(), checked.out).toBe("");
      expect(checked.code).toBe(0);
    });

    test("a real Prometheus scrapes it with the bearer token", async () => {
      test.setTimeout(60_000);
      const folder = mkdtempSync(path.join(tmpdir(), "abacus-prometheus-"));
      const port = await freePort();
      const target = new URL(origin).host;
      writeFileSync(
        path.join(folder, "prometheus.yml"),
        [
          "global:",
          "  scrape_interval: 1s",
          "  scrape_timeout: 1s",
          "scrape_configs:",
          "  - job_name: abacus",
          "    metrics_path: /metrics",
          "    authorization:",
          "      type: Bearer",
          `      credentials: ${TOKEN}`,
          "    static_configs:",
          `      - targets: ["${target}"]`,
          "",
        ].join("\n"),
      );
      let log = "";
      const prometheus = spawn(
        "prometheus",
        [
          `--config.file=${path.join(folder, "prometheus.yml")}`,
          `--storage.tsdb.path=${path.join(folder, "data")}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      children.push(prometheus);
      prometheus.stdout.on("data", (d) => {
        log += d;
      });
      prometheus.stderr.on("data", (d) => {
        log += d;
      });
      const api = `http://127.0.0.1:${port}`;
      const query = async (expression: string) => {
        const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(expression)}`);
        const body = (await response.json()) as {
          data: { result: { metric: Record<string, string>; value: [number, string] }[] };
        };
        return body.data.result;
      };
      try {
        await waitFor("Prometheus to be ready", 20_000, async () => {
          if (prometheus.exitCode !== null) throw new Error(`prometheus exited:\n${log.slice(-2000)}`);
          return (await fetch(`${api}/-/ready`)).ok ? true : undefined;
        });
        const up = await waitFor("a first scrape (up == 1)", 20_000, async () => {
          const result = await query('up{job="abacus"}');
          return result[0]?.value[1] === "1" ? result : undefined;
        });
        expect(up[0]?.metric.instance).toBe(target);
        const pool = await waitFor("an app metric in Prometheus", 10_000, async () => {
          const result = await query('abacus_db_pool_size{job="abacus"}');
          return result.length > 0 ? result : undefined;
        });
        expect(Number(pool[0]?.value[1])).toBeGreaterThan(0);
      } finally {
        prometheus.kill("SIGTERM");
        await new Promise((resolve) => {
          if (prometheus.exitCode !== null) resolve(null);
          else prometheus.once("exit", resolve);
          setTimeout(resolve, 5_000).unref();
        });
        rmSync(folder, { recursive: true, force: true });
      }
    });

    test("the admin overview says metrics are on, with the job queue and schema version", async () => {
      const signedIn = await fetch(`${origin}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ email: demo.admin, password: DEMO_PASSWORD }),
      });
      expect(signedIn.status).toBe(200);
      const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      const page = await (await fetch(`${origin}/admin`, { headers: { cookie } })).text();
      expect(page).toMatch(/data-testid="metrics-fact"[^>]*>On: /);
      expect(page).not.toContain(TOKEN);
      expect(page).toMatch(/data-testid="job-queue"[^>]*><span[^>]*>\d+(<!-- -->)? due/);
      expect(page).toMatch(/Last billing run: /);
      expect(page).toMatch(/data-testid="schema-version"[^>]*>\d{4}_/);
    });
  });
