/**
 * How the workbench writes byte counts: in binary units everywhere (1 MiB = 1,048,576 bytes), sizes of
 * files and results as well as limits, so that a 1 MiB file reads "1 MiB" beside a "4 MiB" limit and
 * not "1.05 MB".
 */

/** A size in binary units: 1,048,576 bytes is "1 MiB", 3,000,000 bytes "2.86 MiB". */
export function formatBytes(n: number): string {
  return formatLimit(n);
}

/** A limit in binary units (1 MiB = 1,048,576 bytes): 4 MiB is "4 MiB", 64 KiB "64 KiB". */
export function formatLimit(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB"] as const;
  let value = n;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  if (i === 0) return `${n.toLocaleString("en-US")} ${n === 1 ? "byte" : "bytes"}`;
  return `${Number(value.toFixed(2)).toLocaleString("en-US")} ${units[i]}`;
}

/** What a field says of a file over its limit: "big.pem is larger than 4 MiB". */
export const tooLargeMessage = (name: string, limit: number) =>
  `${name} is larger than ${formatLimit(limit)}`;

/**
 * A key type with its article as it is read aloud: "an EC", "an RSA", "an Ed25519", "an X448", but "a
 * DSA", "a DH" (the letter's name, not the word, decides: "an" before a vowel sound).
 */
export const withArticle = (word: string) => `${/^[AEFHILMNORSX8]/.test(word) ? "an" : "a"} ${word}`;
