#!/usr/bin/env node
// Keyed /api/v1/calculate under concurrent clients: p50/p99 and how many calls
// were allowed or refused (429: the plan's per-second burst). Needs a running instance and a key:
//
//   node bench/keyed-api.mjs --url http://127.0.0.1:3000 --key abk_… [--connections 20] [--seconds 10]
//
// Create the key on /dashboard (owners and admins). Every allowed call counts against the plan.
import autocannon from "autocannon";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => {
    if (arg.startsWith("--")) pairs.push([arg.slice(2), all[i + 1]]);
    return pairs;
  }, []),
);
const url = new URL("/api/v1/calculate", args.url ?? "http://127.0.0.1:3000");
if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
  console.error("Loopback only: this sends thousands of calls.");
  process.exit(2);
}
if (!args.key) {
  console.error("Pass --key abk_… (create one on /dashboard).");
  process.exit(2);
}
const connections = Math.min(200, Number(args.connections ?? 20));
const duration = Math.min(120, Number(args.seconds ?? 10));
const result = await autocannon({
  url: url.toString(),
  method: "POST",
  connections,
  duration,
  headers: { authorization: `Bearer ${args.key}`, "content-type": "application/json" },
  body: JSON.stringify({ expression: "1234.56 * 1.21 + 3/7", precision: 34 }),
});
const by = (code) => result.statusCodeStats?.[code]?.count ?? 0;
console.log(
  `keyed POST /api/v1/calculate, ${connections} clients, ${duration} s: ${Math.round(result.requests.average)} req/s, ` +
    `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; 200: ${by(200)}, 429: ${by(429)}, other: ${
      result.requests.total - by(200) - by(429)
    }`,
);
