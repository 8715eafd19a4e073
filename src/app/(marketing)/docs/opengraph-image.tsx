import { ogContentType, ogImage, ogSize } from "@/components/shell/og-image";

export const alt = "Abacus documentation";
export const size = ogSize;
export const contentType = ogContentType;

export default function Image() {
  return ogImage({
    eyebrow: "Documentation",
    title: "How Abacus counts money, and how to run it.",
    lines: ["Calculator", "Currencies", "Receipts", "Self-hosting"],
  });
}
