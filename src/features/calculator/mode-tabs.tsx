import Link from "next/link";

export const calculatorModes = [
  { id: "notebook", label: "Notebook" },
  { id: "decimal", label: "Decimal" },
  { id: "currency", label: "Currency" },
  { id: "crypto", label: "Crypto" },
] as const;
export type CalculatorMode = (typeof calculatorModes)[number]["id"];

/**
 * The notebook is the default mode; a link with an expression (`?expr=…`, from before the notebook)
 * still opens the single-expression box.
 */
export function parseMode(value: string | string[] | undefined, expr?: string | string[]): CalculatorMode {
  return calculatorModes.find((m) => m.id === value)?.id ?? (expr ? "decimal" : "notebook");
}

/** The mode lives in the URL (?mode=…), so each mode can be linked to and survives a reload. */
export function ModeTabs({ mode }: { mode: CalculatorMode }) {
  return (
    <nav aria-label="Calculator mode" className="inline-flex rounded-lg border border-border bg-muted p-1">
      {calculatorModes.map((m) => (
        <Link
          key={m.id}
          href={`/calculator?mode=${m.id}`}
          aria-current={m.id === mode ? "page" : undefined}
          className="rounded-md px-2.5 py-1.5 text-sm sm:px-4 font-medium text-muted-foreground hover:text-foreground aria-[current=page]:bg-background aria-[current=page]:text-foreground aria-[current=page]:shadow-sm"
          scroll={false}
        >
          {m.label}
        </Link>
      ))}
    </nav>
  );
}
