import type { IncomingMessage } from "node:http";
import Negotiator from "negotiator";

/** The codings the edge sends, best first: what a client accepts equally well gets Brotli. */
const PREFERRED = ["br", "gzip"] as const;

// negotiator 1.x takes a server preference for ties; its type definitions predate the option.
type EncodingsWithPreference = (
  available: readonly string[],
  options: { preferred: readonly string[] },
) => string[];

/**
 * The content coding to answer `req` with (RFC 9110 §12.5.3, by `negotiator`: weights, `*`,
 * `identity;q=0`), out of `available` (those this answer exists in): "br", "gzip", or "identity".
 * Undefined when the client refuses every one of them, identity included.
 */
export function chooseEncoding(
  req: Pick<IncomingMessage, "headers">,
  available: readonly ("br" | "gzip")[],
): "br" | "gzip" | "identity" | undefined {
  const negotiator = new Negotiator(req as IncomingMessage);
  const encodings = (negotiator.encodings as unknown as EncodingsWithPreference).call(
    negotiator,
    [...available, "identity"],
    { preferred: PREFERRED },
  );
  return encodings[0] as "br" | "gzip" | "identity" | undefined;
}
