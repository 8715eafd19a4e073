import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { workerLogger } from "./worker";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { log: pino({ formatters: { level: (label) => ({ level: label }) } }, stream), lines };
}

describe("graphile-worker's log through pino", () => {
  it("writes each message as one JSON line with its scope, level and error, never a job's payload", () => {
    const { log, lines } = capture();
    const logger = workerLogger(log).scope({ label: "worker", workerId: "worker-1" });
    logger.info("Worker connected and looking for jobs");
    logger.warn("Slow query");
    logger.error("Failed task 7 (billing_renew) with error 'declined':\n  at renew (renew.ts:1)", {
      failure: true,
      job: { id: "7", task_identifier: "billing_renew", payload: { organizationId: "org-secret-payload" } },
      error: new Error("declined"),
      duration: 12.5,
    });
    logger.debug("Found task 8");

    expect(lines).toHaveLength(3); // debug is below pino's default level
    const [info, warn, error] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(info).toMatchObject({
      level: "info",
      component: "graphile-worker",
      label: "worker",
      workerId: "worker-1",
      msg: "Worker connected and looking for jobs",
    });
    expect(warn).toMatchObject({ level: "warn", msg: "Slow query" });
    expect(error).toMatchObject({
      level: "error",
      failure: true,
      jobId: "7",
      taskIdentifier: "billing_renew",
      duration: 12.5,
      err: { type: "Error", message: "declined" },
    });
    expect(String(error?.msg)).toContain("\n  at renew");
    expect(lines.join("\n")).not.toContain("org-secret-payload");
  });
});
