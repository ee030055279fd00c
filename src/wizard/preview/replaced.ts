/**
 * The modules the live preview's build replaces (vite.preview.config.ts; docs/decisions/021,
 * "Preview"), each with its replacement, as paths from the repository's root: the phone metadata
 * cut from the whole metadata the preview carries (no request). The wizard's services are not
 * replaced: the preview hands its own to the wizard (`previewServices`, preview-services.ts). Each
 * replaced module says so in its first line, and src/wizard/preview/replaced.test.ts holds every
 * replacement to what the wizard imports of the module it replaces.
 */
export const PREVIEW_REPLACEMENTS: readonly (readonly [replaced: string, replacement: string])[] = [
  ['src/shared/phone-metadata-fetch.ts', 'src/wizard/preview/phone-metadata-fetch.ts'],
];
