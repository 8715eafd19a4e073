import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { FieldError } from "../../op-base";
import { OTP_ALGORITHMS, type OtpArgs, otp } from "./op";

// One-time passwords against Debian's oathtool, both ways: oathtool's codes are the tool's codes (and
// the tool's check finds them), and oathtool accepts the codes the tool gives.

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

const oathtool = (args: string[]) => execFileSync("oathtool", args, { encoding: "utf8" }).trim().split("\n");

const base: OtpArgs = {
  uri: "",
  secret: "",
  secretEncoding: "base32",
  type: "totp",
  algorithm: "SHA1",
  digits: 6,
  period: 30,
  at: "",
  counter: "0",
  window: 2,
  check: "",
};

async function fieldOf(fn: () => unknown): Promise<string | undefined> {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FieldError);
    return (e as FieldError).field;
  }
  throw new Error("expected a FieldError");
}

describe("one-time passwords, against oathtool", () => {
  // Times from RFC 6238's table, one far out, and one at a step boundary.
  const times = [59, 1_111_111_109, 1_234_567_890, 2_000_000_000, 20_000_000_000, 1_700_000_010];
  const cases = OTP_ALGORITHMS.flatMap((algorithm) =>
    [6, 8].flatMap((digits) => [30, 60].map((period) => ({ algorithm, digits, period }))),
  );

  it.each(cases)(
    "TOTP $algorithm, $digits digits, $period s: the same codes both ways",
    ({ algorithm, digits, period }) => {
      const key = randomBytes(algorithm === "SHA1" ? 20 : algorithm === "SHA256" ? 32 : 64);
      const secret = base32(key);
      for (const t of times) {
        const args = { ...base, secret, algorithm, digits, period, at: new Date(t * 1000).toISOString() };
        const ours = otp(args);
        const flags = [`--totp=${algorithm}`, "-d", String(digits), "-s", `${period}s`, "-N", `@${t}`, "-b"];
        // oathtool prints the current code and the next two.
        const theirs = oathtool([...flags, "-w", "2", secret]);
        expect(ours.codes.filter((c) => c.offset >= 0).map((c) => c.code)).toEqual(theirs);
        // The tool's check finds oathtool's current code at offset 0…
        expect(otp({ ...args, check: theirs[0] ?? "" }).check).toEqual({ code: theirs[0], offset: 0 });
        // …and oathtool accepts the tool's codes, the current one at position 0 and the next at 1.
        const current = ours.codes.find((c) => c.offset === 0)?.code ?? "";
        const next = ours.codes.find((c) => c.offset === 1)?.code ?? "";
        expect(oathtool([...flags, "-w", "0", secret, current])).toEqual(["0"]);
        expect(oathtool([...flags, "-w", "1", secret, next])).toEqual(["1"]);
        expect(ours.remaining).toBe(period - (t % period));
      }
    },
  );

  it.each(OTP_ALGORITHMS)(
    "HOTP %s, 6 and 8 digits, hex key, several counters: the same codes both ways",
    (algorithm) => {
      const key = randomBytes(20).toString("hex");
      for (const digits of [6, 8]) {
        for (const counter of [0, 1, 9, 1000, 2 ** 32 + 5]) {
          const args = {
            ...base,
            type: "hotp" as const,
            secret: key,
            secretEncoding: "hex" as const,
            algorithm,
            digits,
            counter: String(counter),
          };
          // oathtool's HOTP is SHA-1 only; the other hashes are checked through TOTP's equivalence: a TOTP
          // code at step N is the HOTP code at counter N.
          const theirs =
            algorithm === "SHA1"
              ? oathtool(["--hotp", "-d", String(digits), "-c", String(counter), "-w", "2", key])
              : oathtool([
                  `--totp=${algorithm}`,
                  "-d",
                  String(digits),
                  "-s",
                  "1s",
                  "-N",
                  `@${counter}`,
                  "-w",
                  "2",
                  key,
                ]);
          const ours = otp(args);
          expect(ours.codes.filter((c) => c.offset >= 0).map((c) => c.code)).toEqual(theirs);
          expect(otp({ ...args, check: theirs[1] ?? "" }).check?.offset).toBe(1);
        }
      }
    },
  );

  it("reads an otpauth URI as authenticator apps do, and gives one back", () => {
    const secret = base32(randomBytes(32));
    const uri = `otpauth://totp/ACME:alice@example.com?secret=${secret}&issuer=ACME&algorithm=SHA256&digits=8&period=60`;
    const t = 1_700_000_000;
    const ours = otp({ ...base, uri, at: new Date(t * 1000).toISOString(), window: 0 });
    expect(ours).toMatchObject({
      type: "totp",
      algorithm: "SHA256",
      digits: 8,
      period: 60,
      secretBase32: secret,
    });
    expect(ours.codes.map((c) => c.code)).toEqual(
      oathtool(["--totp=SHA256", "-d", "8", "-s", "60s", "-N", `@${t}`, "-b", secret]),
    );
    // The URI the tool gives for typed parameters reads back to the same codes.
    const typed = otp({
      ...base,
      secret,
      algorithm: "SHA512",
      digits: 8,
      period: 45,
      at: "2030-01-01T00:00:00Z",
    });
    const again = otp({ ...base, uri: typed.uri, at: "2030-01-01T00:00:00Z" });
    expect(again.codes).toEqual(typed.codes);
    expect(typed.uri).toMatch(/^otpauth:\/\/totp\/.*algorithm=SHA512.*digits=8.*period=45/);
  });

  it("names the field of each bad input, and a code not among those shown is not found", async () => {
    expect(await fieldOf(() => otp({ ...base, secret: "not base32!" }))).toBe("secret");
    expect(await fieldOf(() => otp({ ...base, secret: "abc", secretEncoding: "hex" }))).toBe("secret");
    expect(await fieldOf(() => otp({ ...base, secret: "" }))).toBe("secret");
    expect(await fieldOf(() => otp({ ...base, secret: "JBSWY3DP", digits: 5 }))).toBe("digits");
    expect(await fieldOf(() => otp({ ...base, secret: "JBSWY3DP", period: 0 }))).toBe("period");
    expect(await fieldOf(() => otp({ ...base, secret: "JBSWY3DP", window: 11 }))).toBe("window");
    expect(await fieldOf(() => otp({ ...base, secret: "JBSWY3DP", at: "yesterday-ish" }))).toBe("at");
    expect(await fieldOf(() => otp({ ...base, secret: "JBSWY3DP", type: "hotp", counter: "-1" }))).toBe(
      "counter",
    );
    expect(await fieldOf(() => otp({ ...base, uri: "https://example.com/" }))).toBe("uri");
    expect(await fieldOf(() => otp({ ...base, secret: "JBSWY3DP", check: "12ab56" }))).toBe("check");
    const r = otp({ ...base, secret: "JBSWY3DP", at: "2024-01-01T00:00:00Z", window: 0 });
    const wrong = String((Number(r.codes[0]?.code) + 1) % 1_000_000).padStart(6, "0");
    expect(
      otp({ ...base, secret: "JBSWY3DP", at: "2024-01-01T00:00:00Z", window: 0, check: wrong }).check,
    ).toEqual({
      code: wrong,
    });
    // oathtool refuses the same wrong code.
    expect(
      spawnSync("oathtool", ["--totp", "-N", "@1704067200", "-b", "JBSWY3DP", "-w", "0", wrong]).status,
    ).not.toBe(0);
  });
});
