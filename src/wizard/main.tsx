import { useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { WizardConfig } from '../shared/config';
import { CONFIG_ELEMENT_ID } from '../shared/html';
import { UNAVAILABLE_MESSAGE } from '../shared/messages';
import { RESUME_HASH } from '../shared/resume';
import type { HeldSubmit } from './boot';
import { restoredStep } from './engine/navigation';
import { WizardPage } from './page';
import { browserServices } from './services/browser';
import { initErrorReporting } from './services/error-reporting';
import type { WizardServices } from './engine/services';

/** The browser's services, and the engine in a chunk of its own (`wizard-engine.ts`), imported after the load event. */
const services: WizardServices = { ...browserServices, loadEngine: () => import('./wizard-engine') };

/** Calls `onCommit` once, when React has committed its first render (hydration included) to the page. */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  // Runs once: outside the page's StrictMode, and after every effect of the page (parents' effects run last).
  useEffect(() => onCommit(), [onCommit]);
  return children;
}

/**
 * The configuration the server inlined: parsed, defaults applied and its HTML sanitised, so the
 * browser ships neither the schema nor a sanitiser.
 * @throws Error when the page has none, or SyntaxError when it is not JSON.
 */
function inlinedConfig(): WizardConfig {
  const text = document.getElementById(CONFIG_ELEMENT_ID)?.textContent;
  if (!text) throw new Error('The page has no configuration.');
  return JSON.parse(text) as WizardConfig;
}

/**
 * Starts the wizard on the page (imported by `boot.ts` once the server's first step has been
 * painted). The server rendered the first step: the wizard takes it over as it is
 * (hydration) when it starts there too; a draft that returns the applicant to a later step is
 * rendered afresh, as before, and React replaces the server's markup in the same commit. A Continue
 * pressed on the server's markup before (held by `boot.ts`) is carried out once the wizard has
 * taken over. Opened through a link to continue on another device, the page first fetches the
 * link's draft and keeps it as this device's (requirements §22).
 * A page without a readable configuration shows the "unavailable" message.
 * @param held - the submits `boot.ts` held before the wizard took over.
 */
export function startWizard(held: HeldSubmit): void {
  const container = document.getElementById('root')!;
  let config: WizardConfig;
  try {
    config = inlinedConfig();
  } catch (error) {
    console.error(error);
    held.release();
    createRoot(container).render(<p role="alert">{UNAVAILABLE_MESSAGE}</p>);
    return;
  }
  const start = () => {
    const draft = services.drafts(config).load();
    // A notice (a link that no longer works) is not the server's markup: rendered afresh.
    const hydrate = container.firstElementChild !== null && restoredStep(draft, config.steps.length) === 0 && !services.notice;
    const onCommit = () => {
      // Continue pressed on the server's first step: pressed again on the wizard's (a press on a
      // welcome step that a draft has since replaced is dropped).
      if (held.release() && hydrate) container.querySelector('form')?.requestSubmit();
      // Error reporting loads after the first render, never on the critical path.
      setTimeout(() => void initErrorReporting(config.errorReporting?.dsn), 0);
    };
    const page = (
      <Committed onCommit={onCommit}>
        <WizardPage config={config} services={services} />
      </Committed>
    );
    if (hydrate) hydrateRoot(container, page);
    else createRoot(container).render(page);
  };
  // A link to continue on another device (requirements §22): its draft becomes this device's
  // first (`services/resume.ts`, a chunk only such a link loads).
  if (location.hash.startsWith(RESUME_HASH)) void import('./services/resume').then((chunk) => chunk.resume(config, services)).finally(start);
  else start();
}
