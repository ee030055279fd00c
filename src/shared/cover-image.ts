import type { CoverImage } from './config';

// Kept apart from config.ts so the browser's first chunk does not pull in the schema library.

/** The `sizes` of a cover image: full width on phones (SPEC §2, 576px), the 40% panel above. */
export const COVER_IMAGE_SIZES = '(max-width: 576px) 100vw, 40vw';

/** A cover image (a URL, or `{ src, srcset }`) as `{ src, srcset? }`. */
export function coverImageSources(image: CoverImage): { src: string; srcset?: string } {
  return typeof image === 'string' ? { src: image } : image;
}
