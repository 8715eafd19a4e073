/**
 * Structured logs of the server (pino): one JSON line per request and per notable event (start,
 * shutdown), each request with the id it is answered with (`X-Request-Id`), which the app also
 * sees (and attaches to its error reports). Pretty, one readable line each, in development.
 *
 * What a line may hold is chosen, not filtered: the method, the path without its query (a query
 * may carry a mailed token) and without long segments (`loggedPath`), status, duration and size; never a header, cookie, body or address.
 * The redaction paths are a second line of defence for any object a caller passes.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { format } from "node:util";
import pino, { type Logger } from "pino";
import { REQUEST_ID_HEADER } from "@/core/http/edge-contract";
import { LOG_SERVICE, REDACTED_PATHS, REDACTION_CENSOR } from "@/core/logging";

export type { Logger };

export function createLogger({
  dev,
  destination,
}: {
  dev: boolean;
  /** Where lines go (tests); stdout by default. */
  destination?: pino.DestinationStream;
}): Logger {
  const options: pino.LoggerOptions = {
    base: { service: LOG_SERVICE },
    redact: { paths: REDACTED_PATHS, censor: REDACTION_CENSOR },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  if (destination) return pino(options, destination);
  if (dev) {
    return pino({
      ...options,
      transport: { target: "pino-pretty", options: { colorize: true, ignore: "pid,hostname,service" } },
    });
  }
  // Asynchronous writes: a line is handed to the kernel when the event loop is free, several at once
  // under load, instead of one blocking write(2) per request (12 % of the server's CPU in a flood of
  // cheap requests). Shutdown flushes before the process exits (main.ts).
  return pino(options, pino.destination({ dest: 1, sync: false }));
}

/**
 * Sends what anything in this process writes with `console` (the app's messages, Next.js's own
 * warnings and errors, libraries) through `log`, one JSON line each, so that the server's output
 * is JSON from end to end (in production; development keeps the console as it is). An Error among
 * the arguments is logged as `err` (message and stack in the same line).
 */
export function routeConsole(log: Logger, target: Console = console): void {
  const route =
    (level: "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]) => {
      const error = args.find((arg) => arg instanceof Error);
      const rest = args.filter((arg) => arg !== error);
      const message = rest.length > 0 ? format(...rest) : error instanceof Error ? error.message : "";
      if (error) log[level]({ err: error }, message);
      else log[level](message);
    };
  target.debug = route("debug");
  target.log = route("info");
  target.info = route("info");
  target.warn = route("warn");
  target.error = route("error");
  target.trace = route("debug");
}

const INCOMING_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * The request's id: the one a trusted proxy sent (`trustProxy` > 0, well-formed), or a new one. It
 * is set on the request for the app and on the response for the client.
 */
export function requestId(req: IncomingMessage, res: ServerResponse, trustProxy: number): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const id =
    trustProxy > 0 && typeof incoming === "string" && INCOMING_ID.test(incoming) ? incoming : randomUUID();
  req.headers[REQUEST_ID_HEADER] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * The path of a request target without its query string, and with any segment that may be a secret
 * or an identifier (16 or more letters, digits, `-` and `_`, or any percent-encoded one: a reset
 * token in `/api/auth/reset-password/<token>`, a build hash) written `:id`.
 */
export function loggedPath(url: string | undefined): string {
  const path = (url ?? "/").split("?", 1)[0] ?? "/";
  return path
    .split("/")
    .map((segment) => (segment.length >= 16 || segment.includes("%") ? ":id" : segment))
    .join("/");
}

/** Answers not logged one by one (see `unlogged`). */
const UNLOGGED = new WeakSet<ServerResponse>();

/**
 * Leaves the answer `res` out of the request log: a refusal the edge repeats from memory to a client
 * that keeps asking while refused (a flood). Such answers are counted by the metrics
 * (`abacus_edge_refusals_total{reason="repeated_refusal"}`); the first refusal, which the app gave,
 * is logged.
 */
export function unlogged(res: ServerResponse): void {
  UNLOGGED.add(res);
}

/** Logs one line when the answer to `req` is finished (or the client went away first). */
export function logRequest(log: Logger, req: IncomingMessage, res: ServerResponse, id: string): void {
  const started = performance.now();
  const method = req.method;
  const path = loggedPath(req.url);
  let done = false;
  const line = (aborted: boolean) => {
    if (done) return;
    done = true;
    if (UNLOGGED.has(res)) return;
    const length = res.getHeader("content-length");
    log.info(
      {
        reqId: id,
        method,
        path,
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ...(length !== undefined ? { bytes: Number(length) } : {}),
        ...(aborted ? { aborted: true } : {}),
      },
      "request",
    );
  };
  res.once("finish", () => line(false));
  res.once("close", () => line(!res.writableFinished));
}
