import shots from "./product-shots.json";

type ShotName = keyof typeof shots;

/** Below this width the phone picture is used (Tailwind's `sm`). */
const PHONE = "(max-width: 639px)";

/**
 * A picture of the real product (taken by scripts/dev/product-shots.mjs) in the reader's theme: both
 * pictures are in the page, CSS shows one, and a lazy image that is not displayed is never fetched.
 * Phones get the same screen taken at a phone's width (the desktop picture shrunk to a phone's
 * column is too small to read). Widths and heights come from the script, so the space is reserved
 * before the image arrives.
 */
export function ProductShot({ name, caption }: { name: ShotName; caption: string }) {
  const { width, height, alt, phone } = shots[name];
  const img = "h-auto w-full rounded-lg border border-border shadow-sm";
  return (
    <figure className="grid content-start gap-3">
      {(["light", "dark"] as const).map((scheme) => (
        <picture key={scheme} className={scheme === "light" ? "dark:hidden" : "hidden dark:block"}>
          <source
            media={PHONE}
            srcSet={`/product/${name}-phone-${scheme}.webp 2x`}
            width={phone.width}
            height={phone.height}
          />
          <img
            src={`/product/${name}-${scheme}.webp`}
            alt={alt}
            width={width}
            height={height}
            loading="lazy"
            decoding="async"
            className={img}
          />
        </picture>
      ))}
      <figcaption className="text-sm text-muted-foreground">{caption}</figcaption>
    </figure>
  );
}
