/**
 * The sign-in lockout policy (documented in content/docs: "Sign-in protection"). Only failed
 * attempts count; a successful sign-in clears the account's failures.
 *
 * - Per client (network address): `clientLimit` failures in `WINDOW_SECONDS` and that client is
 *   refused until the oldest failure leaves the window. An attacker only locks out themselves.
 * - Per account: the first `FREE_ACCOUNT_FAILURES` failures cost nothing; after that each attempt
 *   must wait a delay that doubles with every further failure, up to `MAX_ACCOUNT_DELAY_SECONDS`.
 *   There is no hard lock, and a device the account has signed in from before (it holds a signed
 *   cookie for that account) is not delayed at all, so the owner is never shut out by others.
 */
export const LOCKOUT_WINDOW_SECONDS = 15 * 60;
export const FREE_ACCOUNT_FAILURES = 5;
export const MAX_ACCOUNT_DELAY_SECONDS = 5 * 60;

/** Seconds an unrecognised device must wait after the last failure, given the failures so far. */
export function accountDelaySeconds(failures: number): number {
  if (failures < FREE_ACCOUNT_FAILURES) return 0;
  return Math.min(2 ** (failures - FREE_ACCOUNT_FAILURES), MAX_ACCOUNT_DELAY_SECONDS);
}

/** "1 minute", "45 seconds": how long to wait, for messages. */
export function waitPhrase(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
