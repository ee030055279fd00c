import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { WizardConfig } from '../shared/config';
import { DEFAULT_MESSAGES, resolveMessages } from '../shared/messages';
import { ErrorBoundary } from './engine/error-boundary';
import { Wizard } from './engine/wizard';
import { initErrorReporting } from './services/error-reporting';
import './styles.css';

/** Id of the `<script type="application/json">` the server inlines the configuration into (DESIGN §4). */
export const CONFIG_ELEMENT_ID = 'wizard-config';

/**
 * The page's configuration. The server inlines it parsed, defaults applied
 * (it refused to start on an invalid one), so the browser does not ship the
 * schema; `npm run dev` without the server parses the default page.
 */
async function loadConfig(): Promise<WizardConfig> {
  const element = document.getElementById(CONFIG_ELEMENT_ID);
  if (element?.textContent) return JSON.parse(element.textContent) as WizardConfig;
  if (!import.meta.env.DEV) throw new Error('The page has no configuration.');
  const [{ parseWizardConfig }, { default: raw }] = await Promise.all([import('../shared/config'), import('../../config/wizard.json')]);
  const result = parseWizardConfig(raw);
  if (!result.config) throw new Error(`Invalid wizard configuration: ${result.problems[0]?.path}: ${result.problems[0]?.message}`);
  return result.config;
}

const root = createRoot(document.getElementById('root')!);
loadConfig().then(
  (config) => {
    const messages = resolveMessages(config.messages);
    root.render(
      <StrictMode>
        <ErrorBoundary fallback={messages.errorFallback} reloadText={messages.reload}>
          <Wizard config={config} />
        </ErrorBoundary>
      </StrictMode>,
    );
    // Error reporting loads after the first render, never on the critical path.
    setTimeout(() => void initErrorReporting(config.errorReporting?.dsn), 0);
  },
  (error: unknown) => {
    console.error(error);
    root.render(<p role="alert">{DEFAULT_MESSAGES.unavailable}</p>);
  },
);
