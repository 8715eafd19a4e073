import { ogContentType, ogImage, ogSize } from "@/components/shell/og-image";

export const alt = "Abacus pricing: Free, Pro and Team";
export const size = ogSize;
export const contentType = ogContentType;

export default function Image() {
  return ogImage({
    eyebrow: "Pricing",
    title: "Start free. A year costs ten months.",
    lines: ["Free", "Pro", "Team", "In your currency"],
  });
}
