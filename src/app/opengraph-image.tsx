import { ogContentType, ogImage, ogSize } from "@/components/shell/og-image";

export const alt = "Abacus: exact money math for small teams";
export const size = ogSize;
export const contentType = ogContentType;

export default function Image() {
  return ogImage({
    eyebrow: "Exact money math for small teams",
    title: "Numbers you can trust to the last cent.",
    lines: ["0.1 + 0.2 = 0.3", "Every ISO 4217 currency", "Signed receipts"],
  });
}
