#!/usr/bin/env node
// Generates the app's icon set from the logo (src/components/shell/logo.tsx): a filled tile in the
// primary colour with the logo's rods and beads in white, legible down to 16 px.
//
//   node scripts/build/icons.mjs
//
// Writes, as Next.js's metadata file conventions expect them (the results are committed):
//   src/app/icon.svg         any size, for browsers that take SVG icons
//   src/app/favicon.ico      16, 32 and 48 px (PNG images in an ICO container), for /favicon.ico
//   src/app/apple-icon.png   180 px, for iOS home screens
// Rasterized with sharp, which Next.js installs for image optimization.
import { writeFileSync } from "node:fs";
import sharp from "sharp";

const PRIMARY = "#1659b5"; // --primary of the light theme, oklch(0.48 0.16 258)

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">
  <title>Abacus</title>
  <rect x="0.5" y="0.5" width="23" height="23" rx="5" fill="${PRIMARY}"/>
  <path d="M5 7.5h14M5 12h14M5 16.5h14" stroke="#fff" stroke-width="1.4" stroke-linecap="round" opacity=".55"/>
  <circle cx="8.5" cy="7.5" r="2.1" fill="#fff"/>
  <circle cx="14.5" cy="12" r="2.1" fill="#fff"/>
  <circle cx="10.5" cy="16.5" r="2.1" fill="#fff"/>
</svg>
`;

const png = (size) =>
  sharp(Buffer.from(svg), { density: (72 * size) / 24 })
    .resize(size, size)
    .png()
    .toBuffer();

/** An ICO file holding PNG images (supported by every browser that asks for /favicon.ico). */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry); // width
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1); // height
    header.writeUInt8(0, entry + 2); // palette size
    header.writeUInt8(0, entry + 3); // reserved
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(data.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.data)]);
}

writeFileSync("src/app/icon.svg", svg);
const sizes = [16, 32, 48];
writeFileSync(
  "src/app/favicon.ico",
  ico(await Promise.all(sizes.map(async (size) => ({ size, data: await png(size) })))),
);
writeFileSync("src/app/apple-icon.png", await png(180));
console.log(
  "Wrote src/app/icon.svg, src/app/favicon.ico (16, 32, 48 px) and src/app/apple-icon.png (180 px).",
);
