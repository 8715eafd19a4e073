export const PRECOMPRESSED: RegExp;
export function precompressStatic(
  distDir: string,
): Promise<{ files: number; made: number; bytes: number; brotliBytes: number }>;
