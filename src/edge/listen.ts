import type { Server } from "node:net";
import process from "node:process";

/**
 * How main.ts listens: a failure to listen (a taken port: another instance, or anything else;
 * a port that needs privileges) ends the process with one line naming the port and a non-zero code,
 * so a supervisor or run-with-db.mjs sees the failure instead of a process that never serves and
 * never exits. Any later server error ends it the same way.
 */
export const LISTEN_BACKLOG = 4096;

export function listenOrExit(
  server: Server,
  { port, host }: { port: number; host: string },
  onListening: () => void,
): void {
  server.on("error", (error: NodeJS.ErrnoException) => {
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
  // A long queue of accepted-but-not-yet-taken connections (Linux caps it at net.core.somaxconn):
  // while a flood of connections is reset one by one, a real client's SYN waits in the queue
  // instead of being dropped and retried a second or more later (Node's default is 511).
  server.listen({ port, host, backlog: LISTEN_BACKLOG }, onListening);
}
