import type { IncomingHttpHeaders } from "node:http";

export function pinForwardedHeaders(
  headers: IncomingHttpHeaders,
  options: { trustProxy: number; appUrl: URL | undefined },
): IncomingHttpHeaders;
export function refuseRequest(
  headers: IncomingHttpHeaders,
): { status: number; code: string; message: string } | null;
export const MAX_REQUEST_BYTES: number;
export function hstsHeader(appUrl: URL | undefined): string | null;
