import { dictionary } from "@zxcvbn-ts/language-common";
import { PASSWORD_MAX, PASSWORD_MIN } from "./constants";
import { estimatePassword } from "./password-strength";

// The ~49,000 most common passwords (zxcvbn-ts's list, MIT), compared case-insensitively. One set
// per process, on globalThis for the reason given at password-strength.ts's estimator.
const COMMON = Symbol.for("abacus.common-passwords");
type WithCommon = typeof globalThis & { [COMMON]?: Set<string> };
function commonPasswords(): Set<string> {
  const scope = globalThis as WithCommon;
  scope[COMMON] ??= new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase()));
  return scope[COMMON];
}

/**
 * Why a password is not acceptable, or null when it is: length limits, the common-password list,
 * then the zxcvbn-ts strength score (at least MIN_PASSWORD_SCORE), with its advice.
 * `userInputs` are the user's own name and email, which make a password easy to guess.
 */
export function passwordProblem(password: string, userInputs: string[] = []): string | null {
  if (password.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  if (commonPasswords().has(password.toLowerCase())) {
    return "This password is one of the most common ones. Choose one that is harder to guess.";
  }
  if (/^(.)\1+$/.test(password)) return "A single repeated character is too easy to guess.";
  const estimate = estimatePassword(password, userInputs);
  if (!estimate.acceptable) {
    const advice = [estimate.warning, ...estimate.suggestions].filter(Boolean).join(" ");
    return `This password is too easy to guess. ${advice || "Add more uncommon words."}`.trim();
  }
  return null;
}
