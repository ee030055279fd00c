import { policyOrigin } from './urls';

/** A page's cover image as its configuration gives it (config-schema.ts, `CoverImageSchema`): a URL, or a file and its `srcset`. */
type CoverImageValue = string | { src: string; srcset: string };

// Kept apart from config-schema.ts so the browser's first chunk does not pull in the schema library.

/**
 * The `sizes` of a cover image: the width the layout gives it (styles.css `.cover`), so the
 * browser picks the file for the screen: the whole width where the cover is the top band (979px
 * and narrower: phones, requirements §2, and tablets, docs/decisions/019), above that the panel of 40 % of the
 * window, never wider than 960 CSS px (the largest file: at 2 560 px the panel is 960 px wide, so
 * the form is not left far from it).
 */
export const COVER_IMAGE_SIZES = '(max-width: 979px) 100vw, min(40vw, 960px)';

/**
 * The widths a cover image's files are made at, in pixels, for its `srcset` (the default page's
 * by scripts/generate-cover-images.ts, the brand's uploads by src/server/uploads.ts): on
 * a phone the cover is a band as wide as the screen (320–430 CSS px at 1–3 device pixels per CSS
 * pixel: 480 for 1×, 640 and 800 for 1.5–2×, 960 above); on wider screens a panel of 40 % of the
 * window, at most 960 CSS px ({@link COVER_IMAGE_SIZES}). Chromium picks, of two neighbours, the
 * smaller one unless the screen's density passes their geometric mean, so the steps are no more
 * than 1.33× apart.
 */
export const COVER_IMAGE_WIDTHS = [480, 640, 800, 960] as const;

/** A cover image (a URL, or `{ src, srcset }`) as `{ src, srcset? }`. */
export function coverImageSources(image: CoverImageValue): { src: string; srcset?: string } {
  return typeof image === 'string' ? { src: image } : image;
}

/**
 * The URLs of a `srcset` (the HTML syntax: `/a-480.webp 480w, /a-960.webp 960w`), each
 * candidate's first word, in order; descriptors dropped. Read by the configuration's rule for a
 * cover's `srcset` (config.ts) and by the page's Content Security Policy, which allows their hosts.
 */
export function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter((url) => url !== '');
}

/**
 * The origins a page's images come from besides its own (`https://cdn.example`): its logo's, and
 * each cover image's `src` and `srcset` URLs'; paths (`/uploads/…`), URLs that do not parse and
 * URLs whose host is no host name give none (`policyOrigin`, urls.ts). Sorted, each once. Read by
 * the page's Content Security Policy (`img-src`) and by the builder, which loads the preview frame
 * again when a saved draft's image origins change (the frame's policy is the one it was loaded
 * with). Reads a configuration as typed too: a value of the wrong shape gives no origin.
 * @param config - the page's `logo`, `coverImages` and `singleCoverImg`, parsed or as typed.
 */
export function imageOrigins(config: { logo?: unknown; coverImages?: unknown; singleCoverImg?: unknown }): string[] {
  const urls: unknown[] = [config.logo];
  const covers = [config.singleCoverImg, ...(Array.isArray(config.coverImages) ? (config.coverImages as unknown[]) : [])];
  for (const image of covers) {
    if (typeof image === 'string') urls.push(image);
    else if (typeof image === 'object' && image !== null) {
      const { src, srcset } = image as { src?: unknown; srcset?: unknown };
      urls.push(src, ...(typeof srcset === 'string' ? srcsetUrls(srcset) : []));
    }
  }
  const origins = urls.flatMap((url) => policyOrigin(url) ?? []);
  return [...new Set(origins)].sort();
}
