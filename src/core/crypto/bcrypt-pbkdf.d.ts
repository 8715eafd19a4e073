// The one function of bcrypt-pbkdf (OpenBSD's bcrypt_pbkdf, ported 1:1) that openssh.ts uses.
declare module "bcrypt-pbkdf" {
  /** Fills `key` with `keylen` bytes; returns 0, or -1 on bad parameters. */
  export function pbkdf(
    pass: Uint8Array,
    passlen: number,
    salt: Uint8Array,
    saltlen: number,
    key: Uint8Array,
    keylen: number,
    rounds: number,
  ): number;
}
