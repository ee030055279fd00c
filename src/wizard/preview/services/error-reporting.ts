/**
 * The preview's error reporting (docs/decisions/021 "Preview"): none (a draft's errors
 * are the builder's to show, not the brand's error tracker's). Replaces `services/error-reporting.ts`
 * in the preview build, so Sentry is not in the preview's bundle.
 */

/** Starts nothing; resolves to undefined. */
export function initErrorReporting(_dsn: string | undefined): Promise<undefined> {
  return Promise.resolve(undefined);
}

/** Reports nothing (the preview's own boundary tells the builder). */
export function reportError(_error: unknown, _componentStack?: string): void {}
