import localFont from "next/font/local";

// Inter, self-hosted: the @fontsource-variable/inter package's Latin file with its weight axis
// limited to the 400..700 the pages use (scripts/build/subset-font.sh makes it from the package; nothing is
// downloaded at build or run time).
export const inter = localFont({
  src: "./inter-latin-wght-400-700.woff2",
  variable: "--font-inter",
  weight: "400 700",
  display: "swap",
});
