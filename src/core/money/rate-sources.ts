/** Where a stored exchange rate came from: an imported file (ECB XML, CSV), an admin's edit, or the seed. */
export const FX_RATE_SOURCES = ["ecb-xml", "csv", "manual", "seed"] as const;
export type FxRateSource = (typeof FX_RATE_SOURCES)[number];
