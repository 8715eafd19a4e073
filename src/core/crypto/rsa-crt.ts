/**
 * An RSA private key given only n, e and d (RFC 7518 §6.3.2 lets a JWK leave out p, q, dp, dq and qi):
 * the primes recovered with the probabilistic method of NIST SP 800-56B Rev. 2, Appendix C.2 (also
 * RSA's 1977 paper and Boneh's "Twenty years of attacks", fact 1), then the CRT values from them. This is
 * number theory on the key's own values, not a cryptographic primitive; the arithmetic is
 * micro-rsa-dsa-dh's (modular power, gcd, inverse), and like all JavaScript bigint code it is not
 * constant-time.
 */
import { gcd, invert, pow } from "micro-rsa-dsa-dh/utils.js";
import { fail } from "./errors";
import type { PrivateKeyData } from "./keys";

type RsaPrivate = Extract<PrivateKeyData, { kind: "rsa" }>;

/** The largest modulus whose primes are recovered (OpenSSL's own RSA limit, OPENSSL_RSA_MAX_MODULUS_BITS). */
export const RSA_RECOVERY_MAX_BITS = 16384;

/** The bases tried, in order: each finds the primes with probability at least 1/2, so 64 fail about never. */
const BASES = [
  2n,
  3n,
  5n,
  7n,
  11n,
  13n,
  17n,
  19n,
  23n,
  29n,
  31n,
  37n,
  41n,
  43n,
  47n,
  53n,
  59n,
  61n,
  67n,
  71n,
  73n,
  79n,
  83n,
  89n,
  97n,
  101n,
  103n,
  107n,
  109n,
  113n,
  127n,
  131n,
  137n,
  139n,
  149n,
  151n,
  157n,
  163n,
  167n,
  173n,
  179n,
  181n,
  191n,
  193n,
  197n,
  199n,
  211n,
  223n,
  227n,
  229n,
  233n,
  239n,
  241n,
  251n,
  257n,
  263n,
  269n,
  271n,
  277n,
  281n,
  283n,
  293n,
  307n,
  311n,
];

/**
 * p and q (p > q, as OpenSSL writes them) with p × q = n, from n, e and d. k = d·e − 1 is a multiple of
 * λ(n); write k = 2^t · r with r odd. For a base g, the sequence g^r, g^2r, … mod n ends at 1; a square
 * root of 1 met on the way that is not ±1 shares exactly one prime with n.
 */
export function rsaPrimes(n: bigint, e: bigint, d: bigint): { p: bigint; q: bigint } {
  // Bounded before it starts: each base costs a modular power as long as n, cubic in its size.
  if (n.toString(2).length > RSA_RECOVERY_MAX_BITS) {
    fail(
      "INPUT_TOO_LARGE",
      `RSA keys over ${RSA_RECOVERY_MAX_BITS} bits (OpenSSL's limit) are not recovered from n, e and d; give the JWK its p, q, dp, dq and qi`,
    );
  }
  const bad = () => fail("MALFORMED_KEY", "Malformed RSA private key: d does not match n and e");
  if (n < 15n || n % 2n === 0n || e < 3n || d < 1n || d >= n) bad();
  const k = d * e - 1n;
  if (k % 2n !== 0n) bad();
  let r = k;
  let t = 0;
  while (r % 2n === 0n) {
    r /= 2n;
    t++;
  }
  for (const g of BASES) {
    if (g >= n) break;
    let y = pow(g, r, n);
    if (y === 1n || y === n - 1n) continue;
    for (let i = 0; i < t; i++) {
      const x = (y * y) % n;
      if (x === 1n) {
        const p = gcd(y - 1n, n);
        const q = n / p;
        if (p <= 1n || q <= 1n || p * q !== n) break;
        return p > q ? { p, q } : { p: q, q: p };
      }
      if (x === n - 1n) break;
      y = x;
    }
  }
  return bad();
}

/** The full private key (with dp, dq and qi) from n, e and d; `MALFORMED_KEY` when d does not fit. */
export function rsaKeyFromExponents(n: bigint, e: bigint, d: bigint): RsaPrivate {
  const { p, q } = rsaPrimes(n, e, d);
  const dp = d % (p - 1n);
  const dq = d % (q - 1n);
  // d must undo e modulo both p − 1 and q − 1 (i.e. modulo λ(n)), or the key would not decrypt.
  if ((e * dp) % (p - 1n) !== 1n || (e * dq) % (q - 1n) !== 1n) {
    fail("MALFORMED_KEY", "Malformed RSA private key: d does not match n and e");
  }
  return { kind: "rsa", n, e, d, p, q, dp, dq, qi: invert(q, p) };
}
