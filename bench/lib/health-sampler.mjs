// The health sampler of probe-kit.mjs's startMonitor, in a worker thread of its own: sampling from
// the flooding script's own event loop would add that loop's delay (it is busy reading the flood's
// answers) to every health latency, and charge the server with the client's slowness.
import { parentPort, workerData } from "node:worker_threads";

const { origin, intervalMs } = workerData;
const latencies = [];
let failures = 0;
let running = true;
parentPort.on("message", (message) => {
  if (message === "stop") running = false;
});
while (running) {
  const started = performance.now();
  try {
    const response = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(120_000) });
    await response.arrayBuffer();
    if (response.status !== 200) failures++;
  } catch {
    failures++;
  }
  latencies.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, intervalMs));
}
parentPort.postMessage({ latencies, failures });
