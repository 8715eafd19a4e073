import { describe, expect, it } from "vitest";

// The server (main.ts) applies these to every request before Next.js sees it (forwarded-host trust).
import {
  bypassesGate,
  ClientGate,
  canonicalTarget,
  hstsHeader,
  MAX_REQUEST_BYTES,
  pinForwardedHeaders,
  refuseRequest,
} from "./request-guard";

describe("pinForwardedHeaders", () => {
  it("drops client-sent X-Forwarded-Host/Proto when no proxy is trusted", () => {
    const headers = pinForwardedHeaders(
      { host: "localhost:3000", "x-forwarded-host": "evil.com", "x-forwarded-proto": "https" },
      { trustProxy: 0, appUrl: undefined },
    );
    expect(headers).toEqual({ host: "localhost:3000" });
  });

  it("keeps only the entry the nearest trusted proxy set", () => {
    const headers = pinForwardedHeaders(
      { host: "10.0.0.5:3000", "x-forwarded-host": "evil.com, abacus.example.com" },
      { trustProxy: 1, appUrl: undefined },
    );
    expect(headers["x-forwarded-host"]).toBe("abacus.example.com");
  });

  it("uses APP_URL's host and scheme behind a proxy", () => {
    const headers = pinForwardedHeaders(
      { host: "10.0.0.5:3000", "x-forwarded-host": "evil.com", "x-forwarded-proto": "http" },
      { trustProxy: 1, appUrl: new URL("https://abacus.example.com") },
    );
    expect(headers).toMatchObject({ "x-forwarded-host": "abacus.example.com", "x-forwarded-proto": "https" });
  });
});

describe("refuseRequest", () => {
  const action = { host: "localhost:3300", "next-action": "abc" };

  it("answers 400 for an Origin that is not a URL", () => {
    expect(refuseRequest({ host: "localhost:3300", origin: "http://localhost:3300.evil.com" })).toMatchObject(
      {
        status: 400,
        code: "invalid_origin",
      },
    );
  });

  it("answers 403 for a server action from another origin, even with a forged X-Forwarded-Host", () => {
    const forged = pinForwardedHeaders(
      { ...action, origin: "https://evil.com", "x-forwarded-host": "evil.com" },
      { trustProxy: 0, appUrl: undefined },
    );
    expect(refuseRequest(forged)).toMatchObject({ status: 403 });
  });

  it("answers 413 to a declared body larger than any endpoint accepts", () => {
    expect(refuseRequest({ host: "h", "content-length": String(100 * 1024 * 1024) })).toMatchObject({
      status: 413,
    });
    expect(refuseRequest({ host: "h", "content-length": String(MAX_REQUEST_BYTES) })).toBeNull();
  });

  it("lets same-origin actions and ordinary requests through", () => {
    expect(refuseRequest({ ...action, origin: "http://localhost:3300" })).toBeNull();
    expect(refuseRequest({ host: "localhost:3300", origin: "https://other.example" })).toBeNull();
    expect(refuseRequest({ host: "localhost:3300" })).toBeNull();
    expect(refuseRequest({ ...action, origin: "null" })).toBeNull();
  });
});

describe("hstsHeader", () => {
  it("is sent only for an https APP_URL", () => {
    expect(hstsHeader(new URL("https://abacus.example.com"))).toMatch(/^max-age=\d+/);
    expect(hstsHeader(new URL("http://localhost:3000"))).toBeNull();
    expect(hstsHeader(undefined)).toBeNull();
  });
});

describe("ClientGate", () => {
  it("runs at most maxActive requests of one client, queues the next, refuses past the queue", () => {
    const gate = new ClientGate({ maxActive: 2, maxQueued: 1 });
    const releases: (() => void)[] = [];
    const start = (release: () => void) => releases.push(release);
    expect(gate.admit("a", start)).toBeTypeOf("function");
    expect(gate.admit("a", start)).toBeTypeOf("function");
    expect(gate.admit("a", start)).toBeTypeOf("function");
    expect(gate.load("a")).toEqual({ active: 2, queued: 1 });
    expect(gate.admit("a", start)).toBe(false);
    // Another client is not held up by the first.
    expect(gate.admit("b", start)).toBeTypeOf("function");
    expect(gate.load("b")).toEqual({ active: 1, queued: 0 });
    releases[0]?.();
    releases[0]?.(); // a second call changes nothing
    expect(gate.load("a")).toEqual({ active: 2, queued: 0 });
    for (const release of releases.slice(1)) release();
    expect(gate.load("a")).toEqual({ active: 0, queued: 0 });
  });

  it("drops a request cancelled while it waits, and forgets an idle client", () => {
    const gate = new ClientGate({ maxActive: 1, maxQueued: 2 });
    const started: string[] = [];
    const releases: (() => void)[] = [];
    const start = (name: string) => (release: () => void) => {
      started.push(name);
      releases.push(release);
    };
    gate.admit("a", start("first"));
    const cancelSecond = gate.admit("a", start("second"));
    gate.admit("a", start("third"));
    expect(gate.load("a")).toEqual({ active: 1, queued: 2 });
    if (!cancelSecond) throw new Error("expected the second request to be queued");
    cancelSecond();
    expect(gate.load("a")).toEqual({ active: 1, queued: 1 });
    releases[0]?.();
    expect(started).toEqual(["first", "third"]);
    cancelSecond(); // after the fact: changes nothing
    releases[1]?.();
    expect(gate.load("a")).toEqual({ active: 0, queued: 0 });
    expect(gate.clients.size).toBe(0);
  });

  it("lets the health check and build assets bypass it", () => {
    expect(bypassesGate("/api/health")).toBe(true);
    expect(bypassesGate("/_next/static/chunks/a.js")).toBe(true);
    expect(bypassesGate("/api/v1/rates")).toBe(false);
  });
});

describe("canonicalTarget", () => {
  it("keeps a browser's path as it is, and decodes escaped unreserved characters once", () => {
    expect(canonicalTarget("/pricing?currency=EUR")).toEqual({ url: "/pricing?currency=EUR" });
    expect(canonicalTarget("/api/%761/%72ates?q=%2e%2e")).toEqual({ url: "/api/v1/rates?q=%2e%2e" });
    expect(canonicalTarget("/a%2fb%3a")).toEqual({ url: "/a%2Fb%3A" });
    expect(canonicalTarget("/docs/a.b/..c/...")).toEqual({ url: "/docs/a.b/..c/..." });
  });

  it("refuses dot segments in any spelling, backslashes and targets that are not a path", () => {
    for (const url of ["/_next/static/../../api/x", "/a/./b", "/a/%2E%2e/b", "/a/.%2e", "/a/%2e", "/a/.."]) {
      expect(canonicalTarget(url), url).toEqual({ refuse: "dot_segment" });
    }
    expect(canonicalTarget("/_next/static/..\\api")).toEqual({ refuse: "backslash" });
    expect(canonicalTarget("http://evil.example/api/v1/rates")).toEqual({ refuse: "not_a_path" });
    expect(canonicalTarget("*")).toEqual({ refuse: "not_a_path" });
  });
});
