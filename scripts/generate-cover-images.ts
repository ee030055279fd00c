/**
 * Renders the default page's cover illustrations (public/images/cover-N.svg)
 * to WebP at the widths the layout shows them, for `srcset` (issue 6: images in
 * modern formats at the size shown; issue 12: phones get the file for their
 * width). On a phone the cover is a banner as wide as the screen (320–430 CSS px
 * at 1–3 device pixels per CSS pixel: 480 for 1×, 640 and 800 for 1.5–2×, 960
 * above); on wider screens a panel of 40 % of the window, at most 640 CSS px
 * (640 at 1×, 960 for dense screens). Chromium picks, of two neighbours, the
 * smaller one unless the screen's density passes their geometric mean, so the
 * steps are no more than 1.33× apart. Run `npm run generate:images` after
 * changing an illustration; the outputs are committed.
 */
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/** Widths rendered, in CSS pixels × density. */
export const COVER_WIDTHS = [480, 640, 800, 960];
const IMAGES = fileURLToPath(new URL('../public/images/', import.meta.url));

for (let step = 1; step <= 4; step++) {
  for (const width of COVER_WIDTHS) {
    await sharp(`${IMAGES}cover-${step}.svg`, { density: 300 })
      .resize({ width })
      .webp({ quality: 70 })
      .toFile(`${IMAGES}cover-${step}-${width}.webp`);
  }
}
console.log('wrote cover WebP images');
