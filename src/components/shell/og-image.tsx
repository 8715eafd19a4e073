import { ImageResponse } from "next/og";

/**
 * The picture a shared link shows (Open Graph / Twitter card): rendered once at build time by
 * Next's `opengraph-image` convention with the font bundled in `next/og` (no network). Light theme
 * colours, as hex: the renderer does not read CSS variables or oklch().
 */
export const ogSize = { width: 1200, height: 630 };
export const ogContentType = "image/png";

const ink = "#1b2130";
const muted = "#5b6577";
const primary = "#2f56c5";
const paper = "#fbfcfd";

export function ogImage({ eyebrow, title, lines }: { eyebrow: string; title: string; lines: string[] }) {
  return new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: "72px 80px",
        background: paper,
        color: ink,
        borderTop: `16px solid ${primary}`,
      }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 20, fontSize: 40, fontWeight: 600 }}>
        <svg width="64" height="64" viewBox="0 0 24 24" fill="none" role="img" aria-label="Abacus">
          <rect x="2.5" y="2.5" width="19" height="19" rx="4" stroke={primary} strokeWidth="1.6" />
          <path d="M6 8h12M6 12h12M6 16h12" stroke={primary} strokeWidth="1.2" opacity=".45" />
          <circle cx="9" cy="8" r="1.7" fill={primary} />
          <circle cx="14.5" cy="12" r="1.7" fill={primary} />
          <circle cx="11" cy="16" r="1.7" fill={primary} />
        </svg>
        Abacus
      </div>
      <div style={{ display: "flex", flexDirection: "column", gap: 20 }}>
        <div style={{ fontSize: 30, color: primary }}>{eyebrow}</div>
        <div style={{ fontSize: 68, lineHeight: 1.1, letterSpacing: -1.5 }}>{title}</div>
      </div>
      <div style={{ display: "flex", gap: 28, fontSize: 28, color: muted }}>
        {lines.map((line) => (
          <div key={line} style={{ display: "flex" }}>
            {line}
          </div>
        ))}
      </div>
    </div>,
    ogSize,
  );
}
