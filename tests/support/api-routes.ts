import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** src/app/api: every route handler file under it is one `/api/*` route. */
export const API_DIR = fileURLToPath(new URL("../../src/app/api", import.meta.url));

/** The route.ts files under `dir`, recursively. */
export function routeFiles(dir = API_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** A route file's folder under src/app/api, e.g. "v1/rates". */
export const routeFolder = (file: string) =>
  path.relative(API_DIR, path.dirname(file)).split(path.sep).join("/");

type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response> | Response;

/**
 * The methods a route module implements, as its OPTIONS answer lists them in `Allow` (route files
 * export every method, the others answering 405: server/api.ts `apiMethods`), without HEAD and
 * OPTIONS, which follow from them. None for a route whose OPTIONS is not a 204 with `Allow` (the
 * catch-all of unknown paths).
 */
export async function ownMethods(module: Record<string, unknown>, url: string): Promise<string[]> {
  const options = module.OPTIONS as Handler | undefined;
  if (typeof options !== "function") return [];
  const response = await options(new Request(url, { method: "OPTIONS" }), { params: Promise.resolve({}) });
  const allow = response.status === 204 ? response.headers.get("allow") : null;
  if (!allow) return [];
  return allow
    .split(",")
    .map((method) => method.trim())
    .filter((method) => method !== "HEAD" && method !== "OPTIONS");
}
