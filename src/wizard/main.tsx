import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { parseWizardConfig, type WizardConfig } from '../shared/config';
import { Wizard } from './engine/wizard';
import './styles.css';

/** Id of the `<script type="application/json">` the server inlines the configuration into (DESIGN §4). */
export const CONFIG_ELEMENT_ID = 'wizard-config';

async function loadConfig(): Promise<WizardConfig> {
  const element = document.getElementById(CONFIG_ELEMENT_ID);
  const raw: unknown = element?.textContent
    ? JSON.parse(element.textContent)
    : // `npm run dev` serves index.html without the server: use the default page.
      import.meta.env.DEV
      ? (await import('../../config/wizard.json')).default
      : undefined;
  const result = parseWizardConfig(raw);
  if (!result.config) throw new Error(`Invalid wizard configuration: ${result.problems[0]?.path}: ${result.problems[0]?.message}`);
  return result.config;
}

const root = createRoot(document.getElementById('root')!);
loadConfig().then(
  (config) =>
    root.render(
      <StrictMode>
        <Wizard config={config} />
      </StrictMode>,
    ),
  (error: unknown) => {
    console.error(error);
    root.render(<p role="alert">This page is not available right now. Please try again later.</p>);
  },
);
