/**
 * The part of @sentry/react the wizard uses, in a module of its own so the
 * lazily loaded chunk is recognisable (`sentry-*.js`) and holds only this.
 */
export { browserTracingIntegration, captureException, init } from '@sentry/react';
