import { renderToString } from 'react-dom/server';
import type { WizardConfig } from '../shared/config';
import { WizardPage } from './page';

/** The tree {@link renderFirstStep} renders, for a test that hydrates its markup as the browser does. */
export { WizardPage };

/**
 * The wizard's one entry for the server (src/server/render-first-step.tsx): renders the page's
 * first step to HTML with React's server rendering, the same tree the browser then hydrates
 * (`WizardPage`), as it paints before the engine chunk arrives — the layout, the cover image as a
 * real `<img>` with its `srcset` and `sizes`, the step bar, the first step's HTML blocks and footer,
 * the Continue button. Rendered without a draft (the server has no storage); the browser hydrates
 * it when it starts on the first step too. Nothing of the browser's services runs here: they start
 * in effects, which server rendering never runs.
 * @param config - the page's configuration with its HTML sanitised by `sanitizeConfig`
 * (src/shared/sanitize-html.ts): what is rendered here is what the browser receives.
 * @returns the markup of the `#root` element's content.
 */
export function renderFirstStep(config: WizardConfig): string {
  return renderToString(<WizardPage config={config} />);
}
