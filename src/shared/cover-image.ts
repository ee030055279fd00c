import type { CoverImage } from './config';

// Kept apart from config.ts so the browser's first chunk does not pull in the schema library.

/**
 * The `sizes` of a cover image: the width the layout gives it (styles.css `.cover`), so the
 * browser picks the file for the screen: the whole width where the cover is the top band (979px
 * and narrower: phones, SPEC §2, and tablets, issue 15), above that the panel of 40 % of the
 * window, never wider than 960 CSS px (the largest file: at 2 560 px the panel is 960 px wide, so
 * the form is not left far from it).
 */
export const COVER_IMAGE_SIZES = '(max-width: 979px) 100vw, min(40vw, 960px)';

/** A cover image (a URL, or `{ src, srcset }`) as `{ src, srcset? }`. */
export function coverImageSources(image: CoverImage): { src: string; srcset?: string } {
  return typeof image === 'string' ? { src: image } : image;
}
