import { hashPassword } from "@better-auth/utils/password";
import { describe, expect, it } from "vitest";
import { ClientQueueFull, fairTurns, passwordHashing } from "./password-hashing";

describe("password hashing", () => {
  it("is Better Auth's scrypt format both ways: its hashes verify here and ours there", async () => {
    const hashing = passwordHashing();
    const theirs = await hashPassword("a-long-unusual-passphrase");
    expect(await hashing.verify({ hash: theirs, password: "a-long-unusual-passphrase" })).toBe(true);
    expect(await hashing.verify({ hash: theirs, password: "a-long-unusual-passphrasE" })).toBe(false);
    const ours = await hashing.hash("another-long-passphrase");
    expect(ours).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await hashing.verify({ hash: ours, password: "another-long-passphrase" })).toBe(true);
  });
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A work that records when it starts and finishes when told to. */
function works() {
  const started: string[] = [];
  const finish = new Map<string, (ok: boolean) => void>();
  const work = (name: string) => () =>
    new Promise<string>((resolve, reject) => {
      started.push(name);
      finish.set(name, (ok) => (ok ? resolve(name) : reject(new Error(`${name} failed`))));
    });
  return { started, finish: (name: string, ok = true) => finish.get(name)?.(ok), work };
}

describe("fairTurns", () => {
  it("runs at most `max` at once and goes on after a failure", async () => {
    const turns = fairTurns(2);
    const w = works();
    const results = ["a0", "a1", "a2", "a3", "a4"].map((name) =>
      turns.run("a", w.work(name)).catch((e: Error) => e.message),
    );
    await tick();
    expect(w.started).toEqual(["a0", "a1"]);
    w.finish("a1", false);
    await tick();
    expect(w.started).toEqual(["a0", "a1", "a2"]);
    w.finish("a0");
    await tick();
    expect(w.started).toEqual(["a0", "a1", "a2", "a3"]);
    w.finish("a2");
    w.finish("a3");
    await tick();
    expect(w.started).toEqual(["a0", "a1", "a2", "a3", "a4"]);
    w.finish("a4");
    expect(await Promise.all(results)).toEqual(["a0", "a1 failed", "a2", "a3", "a4"]);
  });

  it("serves clients with a backlog in turn: one client's burst delays another by one work, not by the burst", async () => {
    const turns = fairTurns(1);
    const w = works();
    const all = [
      ...["a0", "a1", "a2", "a3"].map((name) => turns.run("a", w.work(name))),
      ...["b0", "b1", "b2", "b3"].map((name) => turns.run("b", w.work(name))),
    ];
    for (let i = 0; i < all.length; i++) {
      await tick();
      w.finish(w.started.at(-1) ?? "");
    }
    await Promise.all(all);
    // b0 arrived with nothing in flight, so it went first; then a and b alternate. A first-come
    // queue would run a0 a1 a2 a3 b0 b1 b2 b3.
    expect(w.started).toEqual(["a0", "b0", "a1", "b1", "a2", "b2", "a3", "b3"]);
  });

  it("puts a client with nothing in flight before the clients with a backlog (new flows first)", async () => {
    const turns = fairTurns(1);
    const w = works();
    const a = ["a0", "a1", "a2", "a3", "a4", "a5"].map((name) => turns.run("a", w.work(name)));
    const b = ["b0", "b1", "b2"].map((name) => turns.run("b", w.work(name)));
    await tick();
    w.finish("a0");
    await tick();
    expect(w.started).toEqual(["a0", "b0"]);
    // A person signing in while a and b keep queues: next after the running work.
    const late = turns.run("late", w.work("late0"));
    w.finish("b0");
    await tick();
    expect(w.started).toEqual(["a0", "b0", "late0"]);
    w.finish("late0");
    for (const name of ["a1", "b1", "a2", "b2", "a3", "a4", "a5"]) {
      await tick();
      expect(w.started.at(-1)).toBe(name);
      w.finish(name);
    }
    await Promise.all([...a, ...b, late]);
  });

  it("refuses a client at its cap at once, counting its running and queued works, and not others", async () => {
    const turns = fairTurns(1);
    const w = works();
    const held = ["a0", "a1", "a2"].map((name) => turns.run("a", w.work(name), 3));
    await expect(turns.run("a", w.work("a3"), 3)).rejects.toBeInstanceOf(ClientQueueFull);
    const b = turns.run("b", w.work("b0"), 3);
    expect(turns.load("a")).toBe(3);
    for (const name of ["a0", "b0", "a1", "a2"]) {
      await tick();
      w.finish(name);
    }
    await Promise.all([...held, b]);
    expect(w.started).toEqual(["a0", "b0", "a1", "a2"]);
    expect(turns.load("a")).toBe(0);
  });
});
