/**
 * A same-origin path to send the user to after signing in, or the fallback. Anything that could
 * leave the site (absolute URLs, protocol-relative `//host`, backslash tricks, control characters)
 * is refused: no open redirect.
 */
export function safeRedirectPath(value: string | null | undefined, fallback = "/dashboard"): string {
  if (!value || typeof value !== "string" || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  try {
    const base = "https://abacus.invalid";
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
    // Never bounce back into the auth screens themselves.
    if (/^\/(sign-in|sign-up)(\/|$)/.test(url.pathname)) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
