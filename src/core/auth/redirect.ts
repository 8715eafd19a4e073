const BASE = "https://abacus.invalid";

/** True when a browser given `path` as a Location would stay on this origin. */
function staysOnSite(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return false;
  try {
    return new URL(path, BASE).origin === BASE;
  } catch {
    return false;
  }
}

/**
 * A same-origin path to send the user to after signing in, or the fallback. Anything that could
 * leave the site (absolute URLs, protocol-relative `//host`, backslash tricks, control characters)
 * is refused: no open redirect. The check runs on the raw value and again on the URL parser's
 * normalised path, which is what is returned: dot segments can turn `/.//evil.com` or
 * `/%2e%2e//evil.com` into `//evil.com` only after parsing.
 */
export function safeRedirectPath(value: string | null | undefined, fallback = "/dashboard"): string {
  if (!value || typeof value !== "string" || value.length > 2048) return fallback;
  if (!staysOnSite(value)) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  try {
    const url = new URL(value, BASE);
    if (url.origin !== BASE) return fallback;
    // Never bounce back into the auth screens themselves.
    if (/^\/(sign-in|sign-up)(\/|$)/.test(url.pathname)) return fallback;
    const path = `${url.pathname}${url.search}${url.hash}`;
    // The normalised path is what the browser gets: check it again, and that it is stable.
    if (!staysOnSite(path) || new URL(path, BASE).href !== url.href) return fallback;
    return path;
  } catch {
    return fallback;
  }
}
