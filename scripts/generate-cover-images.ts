/**
 * Writes the default page's cover illustrations, one per step (scripts/cover-art.ts: the putty tin,
 * the creator's phone in its ring light, hands stretching putty, the thank-you celebration), to
 * public/images/cover-N.svg, and renders each to WebP at the widths the layout shows it, for
 * `srcset` (images in modern formats at the size shown; phones get the file for their width,
 * decision 009; cover art of the brand's world, made reproducibly here, decision 019). On a phone
 * the cover is a banner as wide as the screen (320–430 CSS px at 1–3 device pixels per CSS pixel:
 * 480 for 1×, 640 and 800 for 1.5–2×, 960 above); on wider screens a panel of 40 % of the window,
 * at most 960 CSS px (the 960 file; at 1× a 1 280 px window shows 512 px and gets the 640): the
 * widths are `COVER_IMAGE_WIDTHS` (src/shared/cover-image.ts), which the brand's uploaded covers
 * are made at too. Run `npm run generate:images` after changing an illustration; the outputs
 * are committed.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { COVER_IMAGE_WIDTHS } from '../src/shared/cover-image';
import { COVER_ART } from './cover-art';

const IMAGES = fileURLToPath(new URL('../public/images/', import.meta.url));

for (const [index, svg] of COVER_ART.entries()) {
  const step = index + 1;
  await writeFile(`${IMAGES}cover-${step}.svg`, svg);
  for (const width of COVER_IMAGE_WIDTHS) {
    await sharp(Buffer.from(svg), { density: 300 })
      .resize({ width })
      .webp({ quality: 72, effort: 6, preset: 'picture' })
      .toFile(`${IMAGES}cover-${step}-${width}.webp`);
  }
}
console.log('wrote cover SVG and WebP images');
