import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AnonymousAnswers, RefusalMemory } from "./edge-memory.mjs";
import type { PageCache } from "./page-cache.mjs";
import type { ClientGate, ConnectionLimits } from "./request-guard.mjs";
import type { StaticAssets } from "./static-assets.mjs";

export interface ServerConfig {
  port: number;
  host: string;
  trustProxy: number;
  appUrl: URL | undefined;
  clientMaxActive: number;
  clientMaxQueued: number;
  clientMaxConnections: number;
  serverMaxConnections: number;
}
export function readServerConfig(
  env: Record<string, string | undefined>,
  options?: { openFiles?: number },
): { config: ServerConfig; errors?: undefined } | { errors: string[]; config?: undefined };
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
export function createEdgeHandler(
  handle: (req: IncomingMessage, res: ServerResponse) => unknown,
  options?: Partial<Omit<ServerConfig, "port" | "host">> & {
    pageCache?: PageCache;
    staticAssets?: StaticAssets;
  },
): Handler & { gate: ClientGate; memory: { refusals: RefusalMemory; anonymous: AnonymousAnswers } };
export const HEADERS_TIMEOUT_MS: number;
export const REQUEST_TIMEOUT_MS: number;
export const KEEP_ALIVE_TIMEOUT_MS: number;
export function createEdgeServer(
  handler: Handler,
  options?: {
    trustProxy?: number;
    clientMaxConnections?: number;
    serverMaxConnections?: number;
    headersTimeoutMs?: number;
    requestTimeoutMs?: number;
    keepAliveTimeoutMs?: number;
    timeoutCheckMs?: number;
  },
): Server & { connections: ConnectionLimits };
