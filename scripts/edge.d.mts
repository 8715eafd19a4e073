import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnonymousAnswers, RefusalMemory } from "./edge-memory.mjs";
import type { PageCache } from "./page-cache.mjs";
import type { ClientGate } from "./request-guard.mjs";
import type { StaticAssets } from "./static-assets.mjs";

export interface ServerConfig {
  port: number;
  host: string;
  trustProxy: number;
  appUrl: URL | undefined;
  clientMaxActive: number;
  clientMaxQueued: number;
}
export function readServerConfig(
  env: Record<string, string | undefined>,
): { config: ServerConfig; errors?: undefined } | { errors: string[]; config?: undefined };
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
export function createEdgeHandler(
  handle: (req: IncomingMessage, res: ServerResponse) => unknown,
  options?: Partial<Omit<ServerConfig, "port" | "host">> & {
    pageCache?: PageCache;
    staticAssets?: StaticAssets;
  },
): Handler & { gate: ClientGate; memory: { refusals: RefusalMemory; anonymous: AnonymousAnswers } };
