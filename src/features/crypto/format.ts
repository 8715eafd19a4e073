/**
 * How the workbench writes byte counts: sizes of files and results in SI units, as file managers show
 * them; limits, which are powers of two, in binary units, so that 4 × 1024 × 1024 reads "4 MiB" and not
 * "4.19 MB".
 */

/** Sizes in SI units (1 MB = 1,000,000 bytes), as file managers show them: 100,000,000 bytes is "100 MB". */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} ${n === 1 ? "byte" : "bytes"}`;
  const [value, unit] = n < 1e6 ? [n / 1e3, "kB"] : n < 1e9 ? [n / 1e6, "MB"] : [n / 1e9, "GB"];
  return `${Number(value.toFixed(value < 10 ? 2 : 1)).toLocaleString("en-US")} ${unit}`;
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
