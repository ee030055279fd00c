import { StrictMode } from 'react';
import type { WizardConfig } from '../shared/config';
import { ErrorBoundary } from './engine/error-boundary';
import { Wizard } from './engine/wizard';

/** The engine and the blocks, in a chunk of their own (`wizard-engine.ts`), imported after the load event. */
const loadEngine = () => import('./wizard-engine');

/**
 * The page's whole React tree: the wizard in StrictMode, under the error boundary. The browser
 * renders or hydrates it (`main.tsx`) and the server renders the same tree to HTML
 * (`src/server/render-first-step.tsx`), so the two produce the same markup.
 */
export function WizardPage({ config }: { config: WizardConfig }) {
  const { messages } = config;
  return (
    <StrictMode>
      <ErrorBoundary fallback={messages.errorFallback} reloadText={messages.reload}>
        <Wizard config={config} loadEngine={loadEngine} />
      </ErrorBoundary>
    </StrictMode>
  );
}
