export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trusted: number,
): string;
