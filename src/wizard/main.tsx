import { createRoot, hydrateRoot } from 'react-dom/client';
import type { WizardConfig } from '../shared/config';
import { DEFAULT_MESSAGES } from '../shared/messages';
import { WizardPage } from './page';
import { initErrorReporting } from './services/error-reporting';
import { createDraftStore, restoredStep } from './services/drafts';
import './styles.css';

/** Id of the `<script type="application/json">` the server inlines the configuration into (DESIGN §4). */
export const CONFIG_ELEMENT_ID = 'wizard-config';

/**
 * The page's configuration. The server inlines it parsed, defaults applied
 * (it refused to start on an invalid one), its HTML sanitised, so the browser
 * ships neither the schema nor a sanitiser; `npm run dev` without the server
 * parses and sanitises the default page.
 */
async function loadConfig(): Promise<WizardConfig> {
  const element = document.getElementById(CONFIG_ELEMENT_ID);
  if (element?.textContent) return JSON.parse(element.textContent) as WizardConfig;
  if (!import.meta.env.DEV) throw new Error('The page has no configuration.');
  const [{ parseWizardConfig }, { sanitizeConfig }, { default: raw }] = await Promise.all([
    import('../shared/config'),
    import('../shared/sanitize-html'),
    import('../../config/wizard.json'),
  ]);
  const result = parseWizardConfig(raw);
  if (!result.config) throw new Error(`Invalid wizard configuration: ${result.problems[0]?.path}: ${result.problems[0]?.message}`);
  return sanitizeConfig(result.config);
}

const container = document.getElementById('root')!;
loadConfig().then(
  (config) => {
    // The server rendered the first step (issue 12). The wizard takes it over as it is (hydration)
    // when it starts there too; a draft that returns the applicant to a later step is rendered
    // afresh, as before, and React replaces the server's markup in the same commit.
    const draft = createDraftStore(config.drafts, config.pageId).load();
    const page = <WizardPage config={config} />;
    if (container.firstElementChild && restoredStep(draft, config.steps.length) === 0) hydrateRoot(container, page);
    else createRoot(container).render(page);
    // Error reporting loads after the first render, never on the critical path.
    setTimeout(() => void initErrorReporting(config.errorReporting?.dsn), 0);
  },
  (error: unknown) => {
    console.error(error);
    createRoot(container).render(<p role="alert">{DEFAULT_MESSAGES.unavailable}</p>);
  },
);
