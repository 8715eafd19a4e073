import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary as commonDictionary } from "@zxcvbn-ts/language-common";
import { dictionary as enDictionary, translations } from "@zxcvbn-ts/language-en";

/** zxcvbn score (0 to 4) a password needs: 3 means "safely unguessable" for an online attacker. */
export const MIN_PASSWORD_SCORE = 3;
export const SCORE_LABELS = ["Very weak", "Weak", "Fair", "Strong", "Very strong"] as const;

export type PasswordEstimate = {
  score: 0 | 1 | 2 | 3 | 4;
  label: (typeof SCORE_LABELS)[number];
  acceptable: boolean;
  warning: string | null;
  suggestions: string[];
  crackTime: string;
};

/**
 * One estimator per process (its ranked dictionaries take ~15 MB). Kept on `globalThis`, not in a
 * module variable: the server bundles this module into several chunks (pages, route handlers,
 * actions), each with its own module variables, and the heap of a running server held two
 * estimators.
 */
const ESTIMATOR = Symbol.for("abacus.password-estimator");
type WithEstimator = typeof globalThis & { [ESTIMATOR]?: ZxcvbnFactory };
function estimator(): ZxcvbnFactory {
  const scope = globalThis as WithEstimator;
  scope[ESTIMATOR] ??= new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...commonDictionary, ...enDictionary },
  });
  return scope[ESTIMATOR];
}

/**
 * How guessable a password is (zxcvbn-ts with the common-password list and English words), with
 * its advice. `userInputs` (name, email) count as known words, so a password made of them is weak.
 */
export function estimatePassword(password: string, userInputs: string[] = []): PasswordEstimate {
  const inputs = userInputs
    .flatMap((value) => [value, ...value.split(/[@.\s_-]+/)])
    .filter((v) => v.length > 2);
  const result = estimator().check(password.slice(0, 128), inputs);
  const score = result.score as PasswordEstimate["score"];
  return {
    score,
    label: SCORE_LABELS[score],
    acceptable: score >= MIN_PASSWORD_SCORE,
    warning: result.feedback.warning || null,
    suggestions: result.feedback.suggestions,
    crackTime: String(result.crackTimes.offlineSlowHashingXPerSecond.display),
  };
}
