// Loaded into a server by a benchmark (`node --import ./bench/lib/memory-probe.mjs dist/server.mjs`)
// with MEMORY_PROBE_FILE set: appends, every MEMORY_PROBE_MS (10 s), one JSON line of what the
// process's memory holds as Node.js and V8 see it: process.memoryUsage() and each V8 heap space's
// committed and used size, in MB. Compared with the RSS from /proc, it splits the anonymous
// mappings into the V8 heap, buffers outside it (external, array buffers) and the rest (malloc,
// thread stacks, code caches). Nothing else: no effect on the server.
import { appendFileSync } from "node:fs";
import v8 from "node:v8";

const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
  const sample = () => {
    const usage = process.memoryUsage();
    const spaces = {};
    for (const space of v8.getHeapSpaceStatistics()) {
      spaces[space.space_name] = {
        committed: mb(space.physical_space_size),
        used: mb(space.space_used_size),
      };
    }
    const line = {
      t: Math.round(process.uptime()),
      rss: mb(usage.rss),
      heapTotal: mb(usage.heapTotal),
      heapUsed: mb(usage.heapUsed),
      external: mb(usage.external),
      arrayBuffers: mb(usage.arrayBuffers),
      mallocedMemory: mb(v8.getHeapStatistics().malloced_memory),
      spaces,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  setInterval(sample, Number(process.env.MEMORY_PROBE_MS ?? 10_000)).unref();
}
