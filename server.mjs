// The HTTP entry point: Next.js behind a small Node server of our own, for one reason: to know the
// client's address. Next.js keeps any X-Forwarded-For header a client sends, so rate limits keyed
// on it could be dodged by sending a fake one. Here the header is replaced by the socket's address,
// or, when TRUST_PROXY=N, by the address N proxies back in the chain they appended.
//
//   node server.mjs [--dev]      (started by `npm start` / `npm run dev` through run-with-db.mjs)
import { createServer } from "node:http";
import process from "node:process";
import next from "next";
import { clientAddress } from "./scripts/client-address.mjs";

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
  handle(req, res);
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
