/**
 * Next.js signals control flow by throwing: `notFound()`, `redirect()`, `forbidden()` and
 * `unauthorized()` throw errors whose `digest` names them. They are not failures and are never
 * reported (the not-found page and redirects are not sent to error reporting).
 */
const CONTROL_FLOW = /^(NEXT_NOT_FOUND|NEXT_REDIRECT|NEXT_HTTP_ERROR_FALLBACK)(;|$)/;

export function isNextControlFlow(error: unknown): boolean {
  if (typeof error === "string") return CONTROL_FLOW.test(error);
  if (typeof error !== "object" || error === null) return false;
  const { digest, message } = error as { digest?: unknown; message?: unknown };
  return (
    (typeof digest === "string" && CONTROL_FLOW.test(digest)) ||
    (typeof message === "string" && CONTROL_FLOW.test(message))
  );
}

type EventLike = { exception?: { values?: { value?: string; type?: string }[] } };

/** For `beforeSend`: true when the event is only Next.js's control flow and must be dropped. */
export function isControlFlowEvent(event: EventLike, hint?: { originalException?: unknown }): boolean {
  if (hint && isNextControlFlow(hint.originalException)) return true;
  return (event.exception?.values ?? []).some((value) => isNextControlFlow(value.value ?? ""));
}
