// Test support (never shipped; Node APIs): runs /usr/bin/openssl with temp files for the crypto interop tests.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const OPENSSL = process.env.OPENSSL ?? "/usr/bin/openssl";

export class OpenSslDir {
  readonly dir = mkdtempSync(join(tmpdir(), "abacus-crypto-"));
  path(name: string): string {
    return join(this.dir, name);
  }
  write(name: string, data: string | Uint8Array): string {
    const p = this.path(name);
    writeFileSync(p, data);
    return p;
  }
  read(name: string): Uint8Array {
    return new Uint8Array(readFileSync(this.path(name)));
  }
  readText(name: string): string {
    return readFileSync(this.path(name), "utf8");
  }
  /** Runs openssl; returns stdout. Throws with stderr on a non-zero exit. */
  run(args: string[], input?: Uint8Array | string): Buffer {
    return execFileSync(OPENSSL, args, { cwd: this.dir, input, stdio: ["pipe", "pipe", "pipe"] });
  }
  /** Runs openssl; true on exit status 0. */
  ok(args: string[]): boolean {
    try {
      this.run(args);
      return true;
    } catch {
      return false;
    }
  }
  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function opensslHas(kind: "-digest-algorithms", name: string): boolean {
  const out = execFileSync(OPENSSL, ["list", kind], { encoding: "utf8" });
  return out.toUpperCase().includes(name.toUpperCase());
}
