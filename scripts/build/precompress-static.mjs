// Writes a Brotli (`name.js.br`, quality 11) and a gzip (`name.js.gz`, level 9) copy beside every
// script and style sheet of a production build's static folder, once per build, for the server to
// send to browsers that accept them (src/edge/static-assets.ts, with sirv). Brotli at its highest
// quality is ~12% smaller than gzip for this build's JavaScript, too slow to make per request but
// free once made here; the gzip copies spare the server compressing for clients without Brotli.
//
//   node scripts/build/precompress-static.mjs   (part of `npm run build`; NEXT_DIST_DIR names the build)
import { createReadStream, createWriteStream } from "node:fs";
import { readdir, rename, stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import process from "node:process";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { createBrotliCompress, createGzip, constants as zlib } from "node:zlib";

/** The build files that get a Brotli copy: text the browser downloads on page loads. */
export const PRECOMPRESSED = /\.(js|css)$/;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile() && PRECOMPRESSED.test(entry.name)) yield full;
  }
}

/** Writes `target` from `file` through `transform` unless it is already newer than `file`. */
async function copy(file, source, target, transform) {
  const existing = await stat(target).catch(() => undefined);
  if (existing && existing.mtimeMs >= source.mtimeMs) return { made: false, size: existing.size };
  // Written aside, then renamed: a server reading the folder never sees half a file.
  const partial = `${target}.${process.pid}.tmp`;
  await pipeline(createReadStream(file), transform, createWriteStream(partial));
  await rename(partial, target);
  return { made: true, size: (await stat(target)).size };
}

async function compress(file) {
  const source = await stat(file);
  const params = {
    [zlib.BROTLI_PARAM_QUALITY]: 11,
    [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    [zlib.BROTLI_PARAM_SIZE_HINT]: source.size,
  };
  const brotli = await copy(file, source, `${file}.br`, createBrotliCompress({ params }));
  const gzip = await copy(file, source, `${file}.gz`, createGzip({ level: 9 }));
  return { made: brotli.made || gzip.made, size: brotli.size };
}

/** Compresses every script and style sheet under `<distDir>/static` (several at once). */
export async function precompressStatic(distDir) {
  const queue = [];
  for await (const file of files(path.join(distDir, "static"))) queue.push(file);
  const summary = { files: queue.length, made: 0, bytes: 0, brotliBytes: 0 };
  const worker = async () => {
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      const { made, size } = await compress(file);
      summary.made += made ? 1 : 0;
      summary.bytes += (await stat(file)).size;
      summary.brotliBytes += size;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
  return summary;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  const started = Date.now();
  const { files: count, made, bytes, brotliBytes } = await precompressStatic(distDir);
  const kb = (n) => `${Math.round(n / 1024)} KB`;
  console.log(
    `Brotli and gzip copies of ${count} build assets in ${distDir}/static (${made} made): ${kb(bytes)} -> ${kb(brotliBytes)}, ${Date.now() - started} ms`,
  );
}
