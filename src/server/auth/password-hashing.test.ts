import { hashPassword } from "@better-auth/utils/password";
import { describe, expect, it } from "vitest";
import { passwordHashing, takingTurns } from "./password-hashing";

describe("password hashing", () => {
  it("is Better Auth's scrypt format both ways: its hashes verify here and ours there", async () => {
    const theirs = await hashPassword("a-long-unusual-passphrase");
    expect(await passwordHashing.verify({ hash: theirs, password: "a-long-unusual-passphrase" })).toBe(true);
    expect(await passwordHashing.verify({ hash: theirs, password: "a-long-unusual-passphrasE" })).toBe(false);
    const ours = await passwordHashing.hash("another-long-passphrase");
    expect(ours).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await passwordHashing.verify({ hash: ours, password: "another-long-passphrase" })).toBe(true);
  });
});

describe("takingTurns", () => {
  it("runs at most `max` at once, the rest in order of arrival, and goes on after a failure", async () => {
    const inTurn = takingTurns(2);
    const started: number[] = [];
    const finish: Array<(ok: boolean) => void> = [];
    const results = Array.from({ length: 5 }, (_, k) =>
      inTurn(
        () =>
          new Promise<number>((resolve, reject) => {
            started.push(k);
            finish[k] = (ok) => (ok ? resolve(k) : reject(new Error(`work ${k} failed`)));
          }),
      ).catch((e: Error) => e.message),
    );
    const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
    await tick();
    expect(started).toEqual([0, 1]);
    finish[1]?.(false);
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish[0]?.(true);
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    finish[2]?.(true);
    finish[3]?.(true);
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    finish[4]?.(true);
    expect(await Promise.all(results)).toEqual([0, "work 1 failed", 2, 3, 4]);
  });
});
