"use client";

import { useDeferredValue, useEffect, useState } from "react";
import type { PasswordEstimate } from "@/core/auth/password-strength";

type Estimator = typeof import("@/core/auth/password-strength").estimatePassword;
let loading: Promise<Estimator> | undefined;
// The estimator and its word lists are large: loaded only when someone starts typing a password.
const loadEstimator = () => {
  loading ??= import("@/core/auth/password-strength").then((m) => m.estimatePassword);
  return loading;
};

const BAR_COLOURS = ["bg-destructive", "bg-destructive", "bg-amber-500", "bg-emerald-600", "bg-emerald-600"];

/**
 * A live strength estimate under a new-password field: score bar, label, zxcvbn's warning and
 * advice. Space is reserved so the form does not jump as it appears.
 */
export function PasswordStrengthMeter({
  password,
  userInputs = [],
}: {
  password: string;
  userInputs?: string[];
}) {
  const deferred = useDeferredValue(password);
  const [estimate, setEstimate] = useState<PasswordEstimate | null>(null);
  const inputs = userInputs.join("\n");
  useEffect(() => {
    let live = true;
    if (!deferred) {
      setEstimate(null);
      return;
    }
    void loadEstimator().then((estimatePassword) => {
      if (live) setEstimate(estimatePassword(deferred, inputs ? inputs.split("\n") : []));
    });
    return () => {
      live = false;
    };
  }, [deferred, inputs]);
  const score = estimate?.score ?? -1;
  const advice = estimate ? [estimate.warning, ...estimate.suggestions].filter(Boolean).join(" ") : "";
  return (
    <div className="-mt-1 mb-2 grid gap-1.5" data-testid="password-strength">
      <div className="grid grid-cols-5 gap-1" aria-hidden="true">
        {[0, 1, 2, 3, 4].map((i) => (
          <div
            key={i}
            className={`h-1.5 rounded-full ${i <= score ? (BAR_COLOURS[score] ?? "bg-muted") : "bg-muted"}`}
          />
        ))}
      </div>
      <p className="min-h-10 text-xs text-muted-foreground" aria-live="polite">
        {estimate ? (
          <>
            <span className="font-medium text-foreground">
              {estimate.label}
              {estimate.acceptable ? "" : ": not strong enough yet"}
            </span>
            {` · would take ${estimate.crackTime} to crack.`}
            {advice ? ` ${advice}` : ""}
          </>
        ) : (
          "Use a few unrelated words; length beats symbols."
        )}
      </p>
    </div>
  );
}
