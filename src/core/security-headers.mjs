/**
 * Security headers for every response. The Content-Security-Policy allows scripts only from this
 * origin (plus the inline `<script>` elements Next.js and the no-flash theme script need); inline
 * event-handler attributes are refused (`script-src-attr 'none'`: neither React nor Next.js
 * renders any), as are frames, plugins and foreign forms; `unsafe-eval` is allowed only in
 * development, where React's tooling needs it; `wasm-unsafe-eval` allows compiling WebAssembly
 * only (the crypto workbench's fast hashing), never `eval` of strings. Why hashes or nonces do not
 * replace 'unsafe-inline' while pages stay static: README, design notes ("Content-Security-Policy").
 * Strict-Transport-Security depends on APP_URL at run time, so the server in src/edge sends it.
 *
 * Plain JavaScript (types: security-headers.d.mts) so that both next.config.ts and the custom
 * server's edge, which answers some build assets itself (src/edge/static-assets.ts), send the same.
 */
/** @param {boolean} isDev */
export function contentSecurityPolicy(isDev) {
  /** @type {Record<string, string[]>} */
  const directives = {
    "default-src": ["'self'"],
    // 'wasm-unsafe-eval' lets WebAssembly compile (the crypto worker's hash-wasm); it does not allow eval().
    "script-src": ["'self'", "'unsafe-inline'", "'wasm-unsafe-eval'", ...(isDev ? ["'unsafe-eval'"] : [])],
    "script-src-attr": ["'none'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(isDev ? ["ws:", "wss:"] : [])],
    "worker-src": ["'self'", "blob:"],
    "manifest-src": ["'self'"],
    "media-src": ["'self'"],
    "frame-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** @param {boolean} isDev */
export function securityHeaders(isDev) {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(isDev) },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "X-Frame-Options", value: "DENY" },
    {
      key: "Permissions-Policy",
      value: "camera=(), microphone=(), geolocation=(), payment=(self), usb=(), interest-cohort=()",
    },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  ];
}
