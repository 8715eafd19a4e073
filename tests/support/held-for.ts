/**
 * How long (ms, whole seconds) an answer says its refusal holds for the server in front of Next.js:
 * the `max-age` of a `private` Cache-Control (src/core/http/edge-contract.ts), or 0.
 */
export function heldFor(response: Pick<Response, "headers">): number {
  const match = /^private, max-age=(\d+)$/.exec(response.headers.get("cache-control") ?? "");
  return match ? Number(match[1]) * 1000 : 0;
}
