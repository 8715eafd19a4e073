import { ogContentType, ogImage, ogSize } from "@/components/shell/og-image";

export const alt = "The Abacus calculator: exact decimals and every currency";
export const size = ogSize;
export const contentType = ogContentType;

export default function Image() {
  return ogImage({
    eyebrow: "Calculator",
    title: "Exact decimals, every currency, nine rounding modes.",
    lines: ["Up to 1,000 digits", "ECB reference rates", "Splits that add up"],
  });
}
