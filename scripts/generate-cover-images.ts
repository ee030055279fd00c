/**
 * Renders the default page's cover illustrations (public/images/cover-N.svg)
 * to WebP at the widths the layout shows them (480 px for phones, 960 px for
 * the desktop panel at 2× density), for `srcset` (issue 6: images in modern
 * formats at the size shown). Run `npm run generate:images` after changing an
 * illustration; the outputs are committed.
 */
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/** Widths rendered, in CSS pixels × density. */
export const COVER_WIDTHS = [480, 960];
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
