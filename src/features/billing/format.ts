import "server-only";
import { formatMoney, parseMoney } from "@/core/money";

/** A decimal amount string of a currency ("2068", "10.36") formatted for people ("¥2,068", "€10.36"). */
export function formatAmount(amount: string, currency: string): string {
  const m = parseMoney(amount, currency);
  return m.ok ? formatMoney(m.value, { locale: "en-US" }) : `${amount} ${currency}`;
}

export function formatMinor(minor: bigint, currency: string): string {
  try {
    return formatMoney({ amount: minor, currency }, { locale: "en-US" });
  } catch {
    return `${minor} ${currency} (minor units)`;
  }
}

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
export const formatDate = (d: Date | string) => dateFormat.format(typeof d === "string" ? new Date(d) : d);
