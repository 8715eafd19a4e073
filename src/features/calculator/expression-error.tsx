import type { ExpressionError } from "@/core/decimal";

/** How many characters of the offending line to show on each side of the error. */
const CONTEXT = 36;

/** An evaluation error with its place: the message, then the offending line with a caret under the spot. */
export function ExpressionErrorView({ error, source }: { error: ExpressionError; source: string }) {
  if (error.code === "empty") return <p className="text-sm text-muted-foreground">{error.message}</p>;
  const lines = source.split("\n");
  const line = (lines[error.line - 1] ?? "").replace(/\t/g, " ");
  const at = Math.max(0, error.column - 1);
  const start = at > CONTEXT ? at - CONTEXT : 0;
  const end = Math.min(line.length, at + Math.max(error.length, 1) + CONTEXT);
  const shown = `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
  const caretAt = at - start + (start > 0 ? 1 : 0);
  const caretLength = Math.max(1, Math.min(error.length, end - at));
  const where = lines.length > 1 ? `line ${error.line}, column ${error.column}` : `column ${error.column}`;
  const named = /column \d+/.test(error.message);
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium text-destructive" data-testid="result-error">
        {error.message}
        {named ? (lines.length > 1 ? ` (line ${error.line})` : "") : ` (${where})`}
      </p>
      {line.trim() !== "" ? (
        <pre aria-hidden className="overflow-x-auto font-mono text-sm leading-5">
          <span className="text-foreground">{shown}</span>
          {"\n"}
          <span className="font-bold text-destructive" data-testid="error-caret">
            {" ".repeat(caretAt)}
            {"^".repeat(caretLength)}
          </span>
        </pre>
      ) : null}
    </div>
  );
}
