import shots from "./product-shots.json";

type ShotName = keyof typeof shots;

/**
 * A picture of the real product (taken by scripts/product-shots.mjs) in the reader's theme: both
 * images are in the page, CSS shows one, and a lazy image that is not displayed is never fetched.
 * Width and height come from the script, so the space is reserved before the image arrives.
 */
export function ProductShot({ name, caption }: { name: ShotName; caption: string }) {
  const { width, height, alt } = shots[name];
  const img = "h-auto w-full rounded-lg border border-border shadow-sm";
  return (
    <figure className="grid content-start gap-3">
      {/* biome-ignore lint/performance/noImgElement: pre-sized WebP made by the script; nothing for next/image to optimise */}
      <img
        src={`/product/${name}-light.webp`}
        alt={alt}
        width={width}
        height={height}
        loading="lazy"
        decoding="async"
        className={`${img} dark:hidden`}
      />
      {/* biome-ignore lint/performance/noImgElement: the dark twin of the image above */}
      <img
        src={`/product/${name}-dark.webp`}
        alt={alt}
        width={width}
        height={height}
        loading="lazy"
        decoding="async"
        className={`${img} hidden dark:block`}
      />
      <figcaption className="text-sm text-muted-foreground">{caption}</figcaption>
    </figure>
  );
}
