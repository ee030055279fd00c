import { StrictMode } from 'react';
import type { WizardConfig } from '../shared/config';
import { ErrorBoundary } from './engine/error-boundary';
import type { WizardServices } from './engine/services';
import { Wizard } from './engine/wizard';

/**
 * The page's whole React tree: the wizard in StrictMode, under the error boundary. The browser
 * renders or hydrates it (`main.tsx`) with its services (`services/browser.ts`), and the server
 * renders the same tree to HTML without them (`render-first-step.tsx`), so the two produce the
 * same markup.
 */
export function WizardPage({ config, services }: { config: WizardConfig; services: WizardServices }) {
  const { messages } = config;
  return (
    <StrictMode>
      <ErrorBoundary fallback={messages.errorFallback} reloadText={messages.reload} onError={services.reportError}>
        <Wizard config={config} services={services} />
      </ErrorBoundary>
    </StrictMode>
  );
}
