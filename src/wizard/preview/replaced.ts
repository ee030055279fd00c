/**
 * The modules the live preview's build replaces (vite.preview.config.ts; docs/decisions/021,
 * "Preview"), each with its replacement, as paths from the repository's root: no request on
 * submit, drafts in memory, no analytics, funnel beacons or error reporting, no focus taken from
 * the builder (a step it shows leaves the keyboard in the builder), and the phone metadata cut
 * from the whole metadata the preview carries (no request). Each replaced module says so in its
 * first line, and src/wizard/preview/replaced.test.ts holds every replacement to what the
 * wizard imports of the module it replaces.
 */
export const PREVIEW_REPLACEMENTS: readonly (readonly [replaced: string, replacement: string])[] = [
  ...['analytics', 'drafts', 'error-reporting', 'funnel', 'idempotency', 'submit'].map(
    (service) => [`src/wizard/services/${service}.ts`, `src/wizard/preview/services/${service}.ts`] as const,
  ),
  ['src/wizard/engine/focus-heading.ts', 'src/wizard/preview/focus-heading.ts'],
  ['src/shared/phone-metadata-fetch.ts', 'src/wizard/preview/phone-metadata-fetch.ts'],
];
