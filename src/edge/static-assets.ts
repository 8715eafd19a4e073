/**
 * The build's files under `/_next/static/`, answered by `sirv` without Next.js: the Brotli and gzip
 * copies scripts/build/precompress-static.mjs writes beside every script and style sheet
 * (`npm run build`) go to the clients that accept them, with a validator (ETag), immutable caching
 * and `Vary: Accept-Encoding`; files without copies (fonts, images) go as they are. sirv lists the
 * folder once at start and answers only the files on that list, so a request path is never joined
 * to a file name. Anything else (another path or method, a file the build does not have) passes to
 * Next.js.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import sirv from "sirv";
import { chooseEncoding } from "./encoding";
import { edgeSecurityHeaders } from "./request-guard";

const PREFIX = "/_next/static";

export interface StaticAssets {
  /** Answers `req` from the build folder, or calls `next()` when it has no such file. */
  serve(req: IncomingMessage, res: ServerResponse, next: () => void): void;
}

export function createStaticAssets({ distDir }: { distDir: string }): StaticAssets {
  const common = edgeSecurityHeaders(false);
  const files = sirv(path.join(distDir, "static"), {
    dev: false,
    etag: true,
    brotli: true,
    gzip: true,
    maxAge: 31_536_000,
    immutable: true,
    extensions: [],
    dotfiles: false,
  });
  return {
    serve(req, res, next) {
      const url = req.url ?? "/";
      if ((req.method !== "GET" && req.method !== "HEAD") || !url.startsWith(`${PREFIX}/`)) {
        next();
        return;
      }
      const accepted = req.headers["accept-encoding"];
      // sirv reads Accept-Encoding by substring (it would send Brotli for `br;q=0`): it is given the
      // one coding negotiated from the client's weights.
      req.headers["accept-encoding"] = chooseEncoding(req, ["br", "gzip"]) ?? "identity";
      req.url = url.slice(PREFIX.length);
      for (const [name, value] of Object.entries(common)) res.setHeader(name, value);
      files(req, res, () => {
        req.url = url;
        if (accepted === undefined) delete req.headers["accept-encoding"];
        else req.headers["accept-encoding"] = accepted;
        next();
      });
    },
  };
}
