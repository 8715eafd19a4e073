/**
 * Sentry DSNs and the tunnel's query, as pure functions (no I/O): shared by the env validation, the
 * tunnel route and the client configuration.
 *
 *   https://<public key>@o<org id>.ingest[.<region>].sentry.io/<project id>
 */
export type Dsn = {
  protocol: "http" | "https";
  publicKey: string;
  /** Host name, lower case, without the port. */
  host: string;
  port: string;
  /** Path before the project id, without slashes at either end (self-hosted Sentry under a path). */
  path: string;
  projectId: string;
};

const DSN_PATTERN =
  /^(https?):\/\/([A-Za-z0-9]+)(?::[A-Za-z0-9]*)?@(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?\/(?:(.*?)\/)?(\d+)\/?$/;

/** Parses a DSN; `undefined` when it is not one. The secret part of old DSNs is dropped. */
export function parseDsn(value: string): Dsn | undefined {
  const match = DSN_PATTERN.exec(value.trim());
  if (!match) return undefined;
  const [, protocol, publicKey, host, port = "", path = "", projectId] = match;
  if (!protocol || !publicKey || !host || !projectId) return undefined;
  if (port && Number(port) > 65_535) return undefined;
  return {
    protocol: protocol as Dsn["protocol"],
    publicKey,
    host: host.toLowerCase(),
    port,
    path: path.replace(/^\/+|\/+$/g, ""),
    projectId,
  };
}

export function dsnToString(dsn: Dsn): string {
  const path = dsn.path ? `${dsn.path}/` : "";
  return `${dsn.protocol}://${dsn.publicKey}@${hostWithPort(dsn)}/${path}${dsn.projectId}`;
}

export function hostWithPort(dsn: Pick<Dsn, "host" | "port">): string {
  return dsn.port ? `${dsn.host}:${dsn.port}` : dsn.host;
}

/** The organisation id Sentry puts in the ingest host (`o123.ingest.sentry.io`), if any. */
export function orgIdOf(dsn: Pick<Dsn, "host">): string | undefined {
  return /^o(\d+)\./.exec(dsn.host)?.[1];
}

/** The data region in the ingest host (`o1.ingest.us.sentry.io`, `ingest.de.sentry.io`), if any. */
export function regionOf(dsn: Pick<Dsn, "host">): string | undefined {
  return /(?:^|\.)ingest\.([a-z]{2,10})\.sentry\.io$/.exec(dsn.host)?.[1];
}

/** Sentry's envelope endpoint for this DSN (its host already names the region). */
export function ingestUrl(dsn: Dsn): string {
  const path = dsn.path ? `/${dsn.path}` : "";
  return `${dsn.protocol}://${hostWithPort(dsn)}${path}/api/${dsn.projectId}/envelope/`;
}

export type TunnelQuery = { o: string; p: string; r?: string };

/** What the browser SDK puts in the tunnel's query for this DSN. */
export function tunnelQueryOf(dsn: Dsn, fallbackOrgId: string): TunnelQuery {
  const region = regionOf(dsn);
  return { o: orgIdOf(dsn) ?? fallbackOrgId, p: dsn.projectId, ...(region ? { r: region } : {}) };
}

export const TUNNEL_PATH = "/monitoring";

export function tunnelUrl(query: TunnelQuery): string {
  const params = new URLSearchParams({ o: query.o, p: query.p });
  if (query.r) params.set("r", query.r);
  return `${TUNNEL_PATH}?${params.toString()}`;
}

/** The same DSN, as far as the tunnel cares: key, host, port, path and project. */
export function sameDsn(a: Dsn, b: Dsn): boolean {
  return (
    a.publicKey === b.publicKey &&
    a.host === b.host &&
    a.port === b.port &&
    a.path === b.path &&
    a.projectId === b.projectId
  );
}
