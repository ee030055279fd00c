import { renderToString } from 'react-dom/server';
import type { WizardConfig } from '../shared/config';
import type { WizardServices } from './engine/services';
import { WizardPage } from './page';

/**
 * The server's rendering has none of the browser's services (`WizardServices`): no draft (the
 * server has no storage: the page it renders is the one without a draft), no analytics, no error
 * report, no engine (so no submit), no focus (server rendering runs no effect). Their modules are never imported here (src/wizard/render-first-step.test.ts).
 */
const SERVER_RENDERING: WizardServices = {
  drafts: () => ({ load: () => undefined, save: () => undefined, clear: () => undefined }),
  analytics: () => ({ track: () => Promise.resolve() }),
  reportError: () => undefined,
  focusHeading: () => false,
};

/**
 * The wizard's one entry for the server (src/server/render-first-step.tsx): renders the page's
 * first step to HTML with React's server rendering, the same tree the browser then hydrates
 * (`WizardPage`), as it paints before the engine chunk arrives — the layout, the cover image as a
 * real `<img>` with its `srcset` and `sizes`, the step bar, the first step's HTML blocks and footer,
 * the Continue button. Rendered without a draft (the server has no storage); the browser hydrates
 * it when it starts on the first step too. Nothing of the browser's services is imported or runs
 * here ({@link SERVER_RENDERING}).
 * @param config - the page's configuration with its HTML sanitised by `sanitizeConfig`
 * (src/shared/sanitize-html.ts): what is rendered here is what the browser receives.
 * @returns the markup of the `#root` element's content.
 */
export function renderFirstStep(config: WizardConfig): string {
  return renderToString(<WizardPage config={config} services={SERVER_RENDERING} />);
}
