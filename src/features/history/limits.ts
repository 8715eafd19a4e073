/** Size limits of a saved calculation (zod-free, so the calculator's client bundle can read them). */
export const SAVE_LIMITS = { expression: 10_000, result: 20_000, note: 500, currencies: 40 } as const;
