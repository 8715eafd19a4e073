import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";

const base = { DATABASE_URL: "postgres://u:p@127.0.0.1:5432/abacus" };

describe("parseEnv", () => {
  it("applies defaults", () => {
    const env = parseEnv({ ...base, AUTH_SECRET: "s".repeat(32) });
    expect(env).toMatchObject({
      DATABASE_MODE: "external",
      DATABASE_POOL_SIZE: 10,
      TRUST_PROXY: 0,
      VERCEL: false,
    });
  });

  it("names every bad variable", () => {
    expect(() =>
      parseEnv({ DATABASE_URL: "mysql://x", TRUST_PROXY: "many", DATABASE_POOL_SIZE: "0" }),
    ).toThrow(
      /DATABASE_URL: must be a postgres:\/\/[\s\S]*DATABASE_POOL_SIZE[\s\S]*TRUST_PROXY: must be the number of reverse proxies/,
    );
  });

  it("requires a database URL", () => {
    expect(() => parseEnv({})).toThrow(/DATABASE_URL: is required/);
  });

  it("requires AUTH_SECRET on an external database (outside tests)", () => {
    expect(() => parseEnv({ ...base, NODE_ENV: "production", DATABASE_MODE: "external" })).toThrow(
      /AUTH_SECRET: is required when DATABASE_URL/,
    );
    expect(() => parseEnv({ ...base, NODE_ENV: "development", DATABASE_MODE: "external" })).toThrow(
      /AUTH_SECRET: is required when DATABASE_URL/,
    );
    expect(parseEnv({ ...base, NODE_ENV: "test", DATABASE_MODE: "external" }).AUTH_SECRET).toBeUndefined();
    expect(
      parseEnv({ ...base, NODE_ENV: "production", DATABASE_MODE: "embedded" }).AUTH_SECRET,
    ).toBeUndefined();
    expect(() => parseEnv({ ...base, AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET: must be at least 32/);
  });
});
