import { CONSTANTS, FUNCTIONS } from "@/core/decimal";

const EXAMPLES = [
  "0.1 + 0.2",
  "1 / 3",
  "2 ^ 10 - 1_000",
  "sqrt(2)",
  "round(2.675, 2)",
  "1200 * 7.5%",
  "150 + 20%",
  "20% off 59.99 EUR",
  "30 as % of 120",
  "rate = 7.5%\n1200 * rate",
  "120 USD + 45 EUR in JPY",
  "99.99 GBP to USD",
];

const FUNCTION_SIGNATURES: Readonly<Record<string, string>> = {
  log: "log(x, base)",
  pow: "pow(x, y)",
  round: "round(x, dp)",
  min: "min(a, b, …)",
  max: "max(a, b, …)",
  atan2: "atan2(y, x)",
};

/** A short syntax reference; clicking an example puts it in the expression box. */
export function SyntaxHelp({ onExample }: { onExample: (text: string) => void }) {
  return (
    <details className="group rounded-lg border border-border bg-card p-4 text-sm open:pb-5">
      <summary className="cursor-pointer font-semibold marker:text-muted-foreground">Syntax help</summary>
      <div className="mt-3 grid gap-3 text-muted-foreground">
        <p>
          <span className="font-medium text-foreground">Numbers</span>{" "}
          <code className="font-mono">1_000.50</code>, <code className="font-mono">1e-7</code>,{" "}
          <code className="font-mono">12%</code> (= 0.12)
        </p>
        <p>
          <span className="font-medium text-foreground">Percentages</span>{" "}
          <code className="font-mono">150 + 20%</code> = 180, <code className="font-mono">20% of 150</code>,{" "}
          <code className="font-mono">20% off 150</code>, <code className="font-mono">30 as % of 120</code>,{" "}
          <code className="font-mono">36 is 20% of what</code>
        </p>
        <p>
          <span className="font-medium text-foreground">Operators</span>{" "}
          <code className="font-mono">+ - * / ^ %</code> and parentheses. <code className="font-mono">^</code>{" "}
          binds tightest and groups to the right (<code className="font-mono">2^3^2</code> = 512;{" "}
          <code className="font-mono">-2^2</code> = -4); <code className="font-mono">a % b</code> is the
          remainder.
        </p>
        <p>
          <span className="font-medium text-foreground">Functions</span>{" "}
          <span className="font-mono text-xs leading-5">
            {Object.keys(FUNCTIONS)
              .map((name) => FUNCTION_SIGNATURES[name] ?? `${name}(x)`)
              .join(", ")}
          </span>
        </p>
        <p>
          <span className="font-medium text-foreground">Constants</span>{" "}
          <span className="font-mono">{CONSTANTS.join(", ")}</span>;{" "}
          <span className="font-medium text-foreground">variables</span>{" "}
          <code className="font-mono">rate = 7.5%</code> on one line,{" "}
          <code className="font-mono">1200 * rate</code> on the next; <code className="font-mono">ans</code>{" "}
          is the last kept result.
        </p>
        <p>
          <span className="font-medium text-foreground">Money</span>{" "}
          <code className="font-mono">12.50 USD</code>; convert with <code className="font-mono">in</code> or{" "}
          <code className="font-mono">to</code>. Amounts in different currencies are converted to the left
          one&apos;s.
        </p>
        <div>
          <p className="font-medium text-foreground">Examples</p>
          <ul className="mt-2 flex flex-wrap gap-2">
            {EXAMPLES.map((example) => (
              <li key={example}>
                <button
                  type="button"
                  onClick={() => onExample(example)}
                  className="rounded-md border border-border bg-background px-2 py-1 font-mono text-xs text-foreground hover:bg-muted"
                >
                  {example.replace("\n", " ⏎ ")}
                </button>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </details>
  );
}
