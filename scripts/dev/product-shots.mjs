// Pictures of the product for the marketing pages, taken from a running app so they never go stale:
// the real calculator and a real signed receipt, in light and dark, written as WebP into
// public/product/ with their sizes in src/features/home/product-shots.json (the home page reads it,
// so every <img> has its true width and height).
//
//   npm start            (in another terminal: the app with the demo data)
//   node scripts/dev/product-shots.mjs [http://localhost:3000]
//
// The receipt belongs to the demo owner (SHOTS_EMAIL / SHOTS_PASSWORD to use another account): the
// script buys Pro for the demo organization with the built-in test provider's card 4242 4242 4242 4242,
// or, when the organization already has Pro, opens the receipt of that purchase.
import { writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "./chromium.mjs";

const base = (process.argv[2] ?? "http://localhost:3000").replace(/\/$/, "");
const email = process.env.SHOTS_EMAIL ?? "owner@abacus.local";
const password = process.env.SHOTS_PASSWORD ?? "abacus-demo-2026";
const outDir = path.join("public", "product");
const manifest = path.join("src", "features", "home", "product-shots.json");
const QUALITY = 0.86;

await mkdir(outDir, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions);

/** Encodes a PNG as WebP inside Chromium (canvas.toDataURL): no image library needed. */
async function toWebp(page, png) {
  const dataUrl = await page.evaluate(
    async ({ b64, quality }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      canvas.getContext("2d").drawImage(img, 0, 0);
      return canvas.toDataURL("image/webp", quality);
    },
    { b64: png.toString("base64"), quality: QUALITY },
  );
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
}

async function signedInContext(options) {
  const context = await browser.newContext(options);
  const res = await context.request.post(`${base}/api/auth/sign-in/email`, {
    data: { email, password },
    headers: { Origin: base },
  });
  if (!res.ok()) throw new Error(`signing in as ${email} failed: ${res.status()} ${await res.text()}`);
  return context;
}

/** Buys Pro for the demo organization (or finds that it has it) and answers its receipt's address. */
async function receiptUrl() {
  const context = await signedInContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/checkout?plan=pro&interval=yearly&currency=EUR`);
  await page.getByLabel("Name on the receipt").fill("Demo Company");
  await page.getByLabel("Country").click();
  await page.getByRole("combobox", { name: "Search countries" }).fill("Germany");
  await page.getByRole("option", { name: "Germany" }).click();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
  await page.waitForURL(/\/receipt\?number=/, { timeout: 60_000 });
  const url = page.url();
  await context.close();
  return url;
}

const shots = [
  {
    name: "calculator",
    alt: "The Abacus calculator: an exact decimal result of 1234.56 × 1.19 ÷ 3 with its rounding controls",
    url: () => `${base}/calculator`,
    viewport: { width: 1100, height: 900 },
    signedIn: false,
    async prepare(page) {
      const box = page.getByLabel("Expression");
      await box.fill("");
      await box.pressSequentially("1234.56 * 1.19 / 3");
      await page.getByRole("region", { name: "Result" }).getByTestId("result-value").waitFor();
      await page.waitForTimeout(300);
      // From the page title to the end of the result: the part that tells what the product does.
      const top = await page.locator("main h1").boundingBox();
      const result = await page.getByRole("region", { name: "Result" }).boundingBox();
      const width = page.viewportSize().width;
      const margin = width < 640 ? 8 : 24;
      const left = Math.max(0, top.x - margin);
      return {
        x: left,
        y: Math.max(0, top.y - margin),
        width: Math.min(width - 2 * left, width),
        height: result.y + result.height + margin - Math.max(0, top.y - margin),
      };
    },
  },
  {
    name: "receipt",
    alt: "A signed Abacus receipt: Pro plan paid in euros, with tax, total and the Ed25519 signature",
    url: null,
    viewport: { width: 900, height: 1000 },
    signedIn: true,
    async prepare(page) {
      await page.getByTestId("receipt-total").waitFor();
      const doc = await page.locator("main > div").first().boundingBox();
      if (page.viewportSize().width < 640) {
        // On a phone: the receipt down to its total, at a size that can be read.
        const total = await page.getByTestId("receipt-total").boundingBox();
        return { x: doc.x, y: doc.y, width: doc.width, height: total.y + total.height + 16 - doc.y };
      }
      return { x: doc.x, y: doc.y, width: doc.width, height: Math.min(doc.height, 1000) };
    },
  },
];
// Phones get their own pictures: the desktop ones shrunk to 330 px have text too small to read.
// The same screens at a phone's width, taken at twice the pixels so they are sharp on its screen.
for (const shot of [...shots]) {
  shots.push({ ...shot, name: `${shot.name}-phone`, viewport: { width: 390, height: 844 }, scale: 2 });
}

const receipt = await receiptUrl();
const sizes = {};
for (const shot of shots) {
  for (const scheme of ["light", "dark"]) {
    const options = { viewport: shot.viewport, colorScheme: scheme, deviceScaleFactor: shot.scale ?? 1 };
    const context = shot.signedIn ? await signedInContext(options) : await browser.newContext(options);
    const page = await context.newPage();
    await page.goto(shot.url ? shot.url() : receipt, { waitUntil: "networkidle" });
    // No caret, no hover or focus rings, no toasts in the picture.
    await page.addStyleTag({
      content: "*{caret-color:transparent!important} [data-sonner-toaster]{display:none!important}",
    });
    const clip = await shot.prepare(page);
    await page.mouse.move(0, 0);
    await page.evaluate(() => document.activeElement?.blur?.());
    const png = await page.screenshot({ clip, animations: "disabled" });
    const webp = await toWebp(page, png);
    const file = path.join(outDir, `${shot.name}-${scheme}.webp`);
    writeFileSync(file, webp);
    // CSS pixels: a picture taken at twice the pixels is drawn at this size.
    const size = { width: Math.round(clip.width), height: Math.round(clip.height) };
    const [kind, phone] = shot.name.split("-");
    if (phone) sizes[kind] = { ...sizes[kind], phone: size };
    else
      sizes[kind] = { ...size, alt: shot.alt, ...(sizes[kind]?.phone ? { phone: sizes[kind].phone } : {}) };
    console.log(
      `${file}: ${Math.round(clip.width)}×${Math.round(clip.height)}, ${(webp.length / 1024).toFixed(1)} KB`,
    );
    await context.close();
  }
}
writeFileSync(manifest, `${JSON.stringify(sizes, null, 2)}\n`);
console.log(`sizes in ${manifest}`);
await browser.close();
