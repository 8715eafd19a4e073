/**
 * The client's address from the socket and X-Forwarded-For. The last `trusted` entries of the
 * chain (socket address included) were added by our own reverse proxies; the entry before them is
 * the client. Anything further left was written by the client and is ignored.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trusted: number,
): string {
  const chain = [
    ...(forwardedFor ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
    socketAddress ?? "unknown",
  ];
  return chain[Math.max(0, chain.length - 1 - trusted)] ?? "unknown";
}
