import type { IncomingHttpHeaders } from "node:http";

export function pinForwardedHeaders(
  headers: IncomingHttpHeaders,
  options: { trustProxy: number; appUrl: URL | undefined },
): IncomingHttpHeaders;
export function refuseRequest(
  headers: IncomingHttpHeaders,
): { status: number; code: string; message: string } | null;
export const MAX_REQUEST_BYTES: number;
export class ClientGate {
  constructor(options?: { maxActive?: number; maxQueued?: number });
  admit(client: string, start: (release: () => void) => void): boolean;
  load(client: string): { active: number; queued: number };
}
export function bypassesGate(url: string | undefined): boolean;
export function hstsHeader(appUrl: URL | undefined): string | null;
