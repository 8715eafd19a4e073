import type { IncomingHttpHeaders } from "node:http";

export function pinForwardedHeaders(
  headers: IncomingHttpHeaders,
  options: { trustProxy: number; appUrl: URL | undefined },
): IncomingHttpHeaders;
export function refuseRequest(
  headers: IncomingHttpHeaders,
  url?: string,
): { status: number; code: string; message: string } | null;
export function pathOf(url: string): string;
export const MAX_REQUEST_BYTES: number;
export const DEFAULT_CLIENT_MAX_ACTIVE: number;
export const DEFAULT_CLIENT_MAX_QUEUED: number;
export class ClientGate {
  constructor(options?: { maxActive?: number; maxQueued?: number });
  admit(client: string, start: (release: () => void) => void): false | (() => void);
  load(client: string): { active: number; queued: number };
  readonly clients: Map<string, unknown>;
}
export function bypassesGate(url: string | undefined): boolean;
export function hstsHeader(appUrl: URL | undefined): string | null;
export function canonicalTarget(
  url: string | undefined,
): { url: string; refuse?: undefined } | { refuse: string; url?: undefined };
export function edgeSecurityHeaders(dev?: boolean): Record<string, string>;
export const DEFAULT_CLIENT_MAX_CONNECTIONS: number;
export const DEFAULT_SERVER_MAX_CONNECTIONS: number;
export const RESERVED_FILE_DESCRIPTORS: number;
export function openFileLimit(limitsText?: string): number | undefined;
export function connectionRoom(openFiles: number | undefined, poolSize: number): number | undefined;
export class ConnectionLimits {
  constructor(options?: { maxPerClient?: number; maxTotal?: number; perClient?: boolean });
  readonly open: Map<string, number>;
  readonly refused: number;
  accept(socket: import("node:net").Socket): boolean;
  attach(server: import("node:net").Server): this;
}
