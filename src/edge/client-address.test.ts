import { describe, expect, it } from "vitest";

// The server (main.ts) applies this rule to every request before Next.js sees it.
import { clientAddress } from "./client-address";

describe("clientAddress", () => {
  it("uses the socket address when no proxy is trusted", () => {
    expect(clientAddress("10.0.0.9", undefined, 0)).toBe("10.0.0.9");
  });

  it("takes the address the trusted proxies saw, ignoring what the client prepended", () => {
    // client sent "X-Forwarded-For: 6.6.6.6"; our one proxy appended the real 203.0.113.7.
    expect(clientAddress("10.0.0.2", "6.6.6.6, 203.0.113.7", 1)).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.2", "6.6.6.6, 203.0.113.7, 10.0.0.1", 2)).toBe("203.0.113.7");
  });

  it("never reads past the start of the chain", () => {
    expect(clientAddress("10.0.0.2", "", 3)).toBe("10.0.0.2");
  });
});
