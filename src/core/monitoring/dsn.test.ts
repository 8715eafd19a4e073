import { describe, expect, it } from "vitest";
import {
  dsnToString,
  ingestUrl,
  orgIdOf,
  parseDsn,
  regionOf,
  sameDsn,
  tunnelQueryOf,
  tunnelUrl,
} from "./dsn";
import { isControlFlowEvent, isNextControlFlow } from "./filters";

describe("parseDsn", () => {
  it("reads key, host, port, path and project", () => {
    expect(parseDsn("https://abc123@o42.ingest.us.sentry.io/7")).toEqual({
      protocol: "https",
      publicKey: "abc123",
      host: "o42.ingest.us.sentry.io",
      port: "",
      path: "",
      projectId: "7",
    });
    expect(parseDsn("http://key:secret@sentry.internal:9000/sub/path/12")).toMatchObject({
      host: "sentry.internal",
      port: "9000",
      path: "sub/path",
      projectId: "12",
    });
  });

  it("refuses what is not a DSN", () => {
    for (const bad of [
      "",
      "abc",
      "https://o1.ingest.sentry.io/1",
      "ftp://k@h/1",
      "https://k@h/abc",
      "https://k@h/",
    ]) {
      expect(parseDsn(bad), bad).toBeUndefined();
    }
  });

  it("round-trips", () => {
    for (const dsn of [
      "https://abc@o1.ingest.de.sentry.io/2",
      "http://k@localhost:3000/1",
      "https://k@h.io/p/3",
    ]) {
      expect(dsnToString(parseDsn(dsn) ?? ({} as never))).toBe(dsn);
    }
  });
});

describe("org, region, ingest URL and tunnel query", () => {
  const us = parseDsn("https://abc@o4505.ingest.us.sentry.io/4506");
  const de = parseDsn("https://abc@o99.ingest.de.sentry.io/5");
  const plain = parseDsn("https://abc@o12.ingest.sentry.io/3");
  const selfHosted = parseDsn("https://abc@sentry.example.com/errors/8");
  if (!us || !de || !plain || !selfHosted) throw new Error("fixtures");

  it("finds the org id and region in the host", () => {
    expect([orgIdOf(us), regionOf(us)]).toEqual(["4505", "us"]);
    expect([orgIdOf(de), regionOf(de)]).toEqual(["99", "de"]);
    expect([orgIdOf(plain), regionOf(plain)]).toEqual(["12", undefined]);
    expect([orgIdOf(selfHosted), regionOf(selfHosted)]).toEqual([undefined, undefined]);
  });

  it("builds the region's ingest URL", () => {
    expect(ingestUrl(us)).toBe("https://o4505.ingest.us.sentry.io/api/4506/envelope/");
    expect(ingestUrl(selfHosted)).toBe("https://sentry.example.com/errors/api/8/envelope/");
  });

  it("builds the tunnel URL with o, p and r", () => {
    expect(tunnelUrl(tunnelQueryOf(us, "1"))).toBe("/monitoring?o=4505&p=4506&r=us");
    expect(tunnelUrl(tunnelQueryOf(plain, "1"))).toBe("/monitoring?o=12&p=3");
    expect(tunnelUrl(tunnelQueryOf(selfHosted, "1"))).toBe("/monitoring?o=1&p=8");
  });

  it("compares DSNs by key, host, port, path and project", () => {
    expect(sameDsn(us, { ...us })).toBe(true);
    expect(sameDsn(us, { ...us, protocol: "http" })).toBe(true);
    for (const change of [
      { publicKey: "x" },
      { host: "o1.ingest.us.sentry.io" },
      { port: "8443" },
      { projectId: "1" },
    ]) {
      expect(sameDsn(us, { ...us, ...change })).toBe(false);
    }
  });
});

describe("Next.js control flow is never reported", () => {
  it("recognises notFound, redirect and HTTP fallback digests", () => {
    expect(isNextControlFlow({ digest: "NEXT_NOT_FOUND" })).toBe(true);
    expect(isNextControlFlow({ digest: "NEXT_REDIRECT;replace;/sign-in;307;" })).toBe(true);
    expect(isNextControlFlow({ digest: "NEXT_HTTP_ERROR_FALLBACK;404" })).toBe(true);
    expect(isNextControlFlow(Object.assign(new Error("NEXT_REDIRECT"), {}))).toBe(true);
    expect(isNextControlFlow(new Error("NEXT_REDIRECTED elsewhere"))).toBe(false);
    expect(isNextControlFlow(new TypeError("x is not a function"))).toBe(false);
    expect(isNextControlFlow(undefined)).toBe(false);
  });

  it("drops such events in beforeSend", () => {
    const redirect = { exception: { values: [{ type: "Error", value: "NEXT_REDIRECT" }] } };
    expect(isControlFlowEvent(redirect)).toBe(true);
    expect(isControlFlowEvent({}, { originalException: { digest: "NEXT_HTTP_ERROR_FALLBACK;404" } })).toBe(
      true,
    );
    expect(
      isControlFlowEvent(
        { exception: { values: [{ value: "boom" }] } },
        { originalException: new Error("boom") },
      ),
    ).toBe(false);
  });
});
