/**
 * Error reporting (requirements §7) with @sentry/react, loaded lazily and only when
 * the configuration has `errorReporting.dsn`, with `tracesSampleRate: 1`.
 * Never on the critical path: the page renders first.
 */

type SentryModule = typeof import('./sentry');

let loading: Promise<SentryModule | undefined> | undefined;

/**
 * Starts error reporting for a DSN; calling it again does nothing.
 * @returns a promise settled once Sentry is initialised (undefined when it could not load).
 */
export function initErrorReporting(dsn: string | undefined): Promise<SentryModule | undefined> {
  if (!dsn) return Promise.resolve(undefined);
  loading ??= import('./sentry').then(
    (Sentry) => {
      Sentry.init({ dsn, tracesSampleRate: 1, integrations: [Sentry.browserTracingIntegration()] });
      return Sentry;
    },
    () => undefined,
  );
  return loading;
}

/** Reports an error caught by the wizard's error boundary, when reporting is on. */
export function reportError(error: unknown, componentStack?: string): void {
  void loading?.then((Sentry) => Sentry?.captureException(error, { extra: { componentStack } }));
}
