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

describe("ORGANIZATIONS_PER_USER", () => {
  const valid = { ...base, AUTH_SECRET: "s".repeat(32) };

  it("is 5 unless set (a blank value counts as unset), and a whole number from 1 to 1000", () => {
    expect(parseEnv(valid).ORGANIZATIONS_PER_USER).toBe(5);
    expect(parseEnv({ ...valid, ORGANIZATIONS_PER_USER: "" }).ORGANIZATIONS_PER_USER).toBe(5);
    expect(parseEnv({ ...valid, ORGANIZATIONS_PER_USER: "1" }).ORGANIZATIONS_PER_USER).toBe(1);
    for (const bad of ["0", "2.5", "1001", "many"]) {
      expect(() => parseEnv({ ...valid, ORGANIZATIONS_PER_USER: bad }), bad).toThrow(
        /ORGANIZATIONS_PER_USER: must be a whole number from 1 to 1000/,
      );
    }
  });
});

describe("error reporting variables", () => {
  const valid = { ...base, AUTH_SECRET: "s".repeat(32) };

  it("defaults to the local store, 10% traces, replays only around errors", () => {
    expect(parseEnv(valid).SENTRY_DSN).toBeUndefined();
    expect(parseEnv(valid)).toMatchObject({
      SENTRY_TRACES_SAMPLE_RATE: 0.1,
      SENTRY_SERVER_TRACES_SAMPLE_RATE: 0,
      SENTRY_REPLAYS_SESSION_SAMPLE_RATE: 0,
      SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE: 1,
    });
    const blank = parseEnv({ ...valid, SENTRY_DSN: "", SENTRY_TRACES_SAMPLE_RATE: "" });
    expect([blank.SENTRY_DSN, blank.SENTRY_TRACES_SAMPLE_RATE]).toEqual([undefined, 0.1]);
  });

  it("accepts a DSN, rates from 0 to 1, an environment and a release", () => {
    const env = parseEnv({
      ...valid,
      SENTRY_DSN: "https://abc123@o42.ingest.us.sentry.io/7",
      SENTRY_TRACES_SAMPLE_RATE: "0.25",
      SENTRY_ENVIRONMENT: "staging",
      SENTRY_RELEASE: "abacus@1.4.0+abc",
    });
    expect(env).toMatchObject({ SENTRY_TRACES_SAMPLE_RATE: 0.25, SENTRY_ENVIRONMENT: "staging" });
  });

  it("names a bad DSN, rate, environment or release", () => {
    expect(() =>
      parseEnv({
        ...valid,
        SENTRY_DSN: "https://sentry.io/7",
        SENTRY_TRACES_SAMPLE_RATE: "1.5",
        SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE: "often",
        SENTRY_ENVIRONMENT: "prod env",
        SENTRY_RELEASE: "a/b",
      }),
    ).toThrow(
      /SENTRY_DSN: must be a Sentry DSN[\s\S]*SENTRY_ENVIRONMENT: must be 1 to 64[\s\S]*SENTRY_RELEASE: must be 1 to 200[\s\S]*SENTRY_TRACES_SAMPLE_RATE: must be a number from 0 to 1[\s\S]*SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE: must be a number from 0 to 1/,
    );
  });
});

describe("billing variables", () => {
  const valid = { ...base, AUTH_SECRET: "s".repeat(32) };
  const pem =
    "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----\n";

  it("accepts an Ed25519 PKCS#8 receipt key, also with escaped newlines", () => {
    expect(parseEnv({ ...valid, RECEIPT_SIGNING_KEY: pem }).RECEIPT_SIGNING_KEY).toBe(pem);
    expect(() => parseEnv({ ...valid, RECEIPT_SIGNING_KEY: pem.replace(/\n/g, "\\n") })).not.toThrow();
  });

  it("refuses another kind of key and requires one in production on an external database", () => {
    expect(() => parseEnv({ ...valid, RECEIPT_SIGNING_KEY: "not a key" })).toThrow(
      /RECEIPT_SIGNING_KEY: must be an unencrypted Ed25519 private key/,
    );
    const p256 =
      "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgoorydukSN7ZTqcOb\n96UfvAhd2IqzFDC1sgTzXz5Uel2hRANCAAR/RwpbHnmz1xMQTjSAP2EywY8jjDWX\nkefeu4va52U41FMcZyA6WwEXNVCWTRRRXtjODy5WQLhNG64F798Qboqm\n-----END PRIVATE KEY-----\n";
    expect(() => parseEnv({ ...valid, RECEIPT_SIGNING_KEY: p256 })).toThrow(/RECEIPT_SIGNING_KEY: must be/);
    expect(() => parseEnv({ ...valid, NODE_ENV: "production" })).toThrow(/RECEIPT_SIGNING_KEY: is required/);
    expect(() => parseEnv({ ...valid, NODE_ENV: "production", RECEIPT_SIGNING_KEY: pem })).not.toThrow();
  });

  it("needs the webhook secret with a Stripe key", () => {
    expect(() => parseEnv({ ...valid, STRIPE_SECRET_KEY: "sk_test_abc123" })).toThrow(
      /STRIPE_WEBHOOK_SECRET: is required with STRIPE_SECRET_KEY/,
    );
    expect(
      parseEnv({ ...valid, STRIPE_SECRET_KEY: "sk_test_abc123", STRIPE_WEBHOOK_SECRET: "whsec_abc" })
        .STRIPE_SECRET_KEY,
    ).toBe("sk_test_abc123");
  });
});

describe("the billing clock", () => {
  it("runs in every instance unless turned off, and names a bad value", () => {
    const valid = { ...base, AUTH_SECRET: "s".repeat(32) };
    expect(parseEnv(valid).BILLING_CLOCK).toBe("on");
    expect(parseEnv({ ...valid, BILLING_CLOCK: "off" }).BILLING_CLOCK).toBe("off");
    expect(() => parseEnv({ ...valid, BILLING_CLOCK: "sometimes" })).toThrow(
      /BILLING_CLOCK: must be on or off/,
    );
  });
});
