// The HTTP entry point: Next.js behind a small Node server of our own, to know the client's
// address. Next.js keeps any X-Forwarded-For header a client sends, so rate limits keyed on it
// could be dodged by sending a fake one. Here the header is replaced by the socket's address, or,
// when TRUST_PROXY=N, by the address N proxies back in the chain they appended. The same goes for
// X-Forwarded-Host/Proto (Next.js's server-action origin check trusts them), a malformed Origin
// gets a clean 400, and an https APP_URL adds Strict-Transport-Security (scripts/request-guard.mjs).
//
//   node server.mjs [--dev]      (started by `npm start` / `npm run dev` through run-with-db.mjs)
import { createServer } from "node:http";
import process from "node:process";
import next from "next";
import { clientAddress } from "./scripts/client-address.mjs";
import {
  bypassesGate,
  ClientGate,
  hstsHeader,
  pinForwardedHeaders,
  refuseRequest,
} from "./scripts/request-guard.mjs";

const dev = process.argv.includes("--dev");
const port = Number.parseInt(process.env.PORT ?? "3000", 10);
const host = process.env.HOST ?? "0.0.0.0";
const trustProxy = Number.parseInt(process.env.TRUST_PROXY ?? "0", 10);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`Invalid configuration:\n  - PORT: must be a port number, got "${process.env.PORT}"`);
  process.exit(1);
}
if (!Number.isInteger(trustProxy) || trustProxy < 0 || trustProxy > 10) {
  console.error(
    `Invalid configuration:\n  - TRUST_PROXY: must be a number of proxies (0 to 10), got "${process.env.TRUST_PROXY}"`,
  );
  process.exit(1);
}

let appUrl;
if (process.env.APP_URL) {
  try {
    appUrl = new URL(process.env.APP_URL);
  } catch {
    console.error(
      `Invalid configuration:\n  - APP_URL: must be an absolute URL, got "${process.env.APP_URL}"`,
    );
    process.exit(1);
  }
}
const hsts = hstsHeader(appUrl);
const gate = new ClientGate();

const app = next({ dev, hostname: "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  const forwarded = req.headers["x-forwarded-for"];
  req.headers["x-forwarded-for"] = clientAddress(
    req.socket.remoteAddress,
    trustProxy > 0 ? (Array.isArray(forwarded) ? forwarded.join(",") : forwarded) : undefined,
    trustProxy,
  );
  pinForwardedHeaders(req.headers, { trustProxy, appUrl });
  if (hsts) res.setHeader("Strict-Transport-Security", hsts);
  const refusal = refuseRequest(req.headers);
  if (refusal) {
    // Closing the connection: an unread body (say 100 MB) is then never received and discarded.
    res.writeHead(refusal.status, {
      "content-type": "application/json",
      "cache-control": "no-store",
      connection: "close",
    });
    res.end(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }), () => {
      req.socket.destroySoon?.();
    });
    return;
  }
  if (bypassesGate(req.url)) return handle(req, res);
  const admitted = gate.admit(req.headers["x-forwarded-for"], (release) => {
    res.once("close", release);
    handle(req, res);
  });
  if (!admitted) {
    res.writeHead(503, {
      "content-type": "application/json",
      "cache-control": "no-store",
      "retry-after": "1",
    });
    res.end(
      JSON.stringify({
        error: { code: "too_many_requests", message: "Too many requests from this client at once." },
      }),
    );
  }
});
server.on("error", (error) => {
  // A taken port (another instance, or anything else) ends this process with a message and a
  // non-zero code, so a supervisor or run-with-db.mjs sees the failure instead of a hung server.
  if (error.code === "EADDRINUSE" || error.code === "EACCES") {
    const why = error.code === "EADDRINUSE" ? "is already in use" : "needs privileges this process lacks";
    console.error(
      `Abacus could not start: port ${port} on ${host} ${why}. Stop the other server or set PORT.`,
    );
  } else {
    console.error(`Abacus could not start: ${error.message}`);
  }
  process.exit(1);
});
server.listen(port, host, () => {
  console.log(`Abacus ${dev ? "(development) " : ""}ready on http://localhost:${port}`);
});

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.close(() => process.exit(0));
    server.closeAllConnections?.();
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
