/**
 * Two-factor backup codes that a person can read aloud, copy by hand and type back: upper case, in
 * two groups of five, from an alphabet without the look-alikes 0/O, 1/I/L and U/V (Crockford's
 * base-32 set minus U): 30 symbols, so a code of 10 carries about 49 bits.
 */
export const BACKUP_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ";
export const BACKUP_CODE_COUNT = 10;
const LENGTH = 10;

/** `count` fresh codes like `7KQ2M-XH9PA`, drawn with rejection sampling (no modulo bias). */
export function generateBackupCodes(count = BACKUP_CODE_COUNT): string[] {
  const n = BACKUP_CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  return Array.from({ length: count }, () => {
    let code = "";
    while (code.length < LENGTH) {
      for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
        if (byte < limit && code.length < LENGTH) code += BACKUP_CODE_ALPHABET[byte % n];
      }
    }
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/**
 * A typed backup code in the stored form: spaces dropped, the dash put back, upper case. A code
 * typed with any capital letter is kept as typed apart from that, since codes made before this
 * alphabet mixed cases.
 */
export function normaliseBackupCode(typed: string): string {
  const compact = typed.replace(/[\s-]+/g, "");
  const cased = /[A-Z]/.test(compact) ? compact : compact.toUpperCase();
  return cased.length === LENGTH ? `${cased.slice(0, 5)}-${cased.slice(5)}` : typed.trim();
}

/** The codes as a text file to keep: what they are, for which account, one code a line. */
export function backupCodesFile(codes: readonly string[], account: string): string {
  return [
    `Abacus backup codes for ${account}`,
    "Each code signs you in once when you cannot use your authenticator app.",
    "",
    ...codes,
    "",
  ].join("\n");
}
