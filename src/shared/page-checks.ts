/**
 * The checks of a stored page's draft (docs/decisions/021), one rulebook for the three
 * places that run it: the server at publish (`POST /api/admin/pages/{id}/publish`), the preview
 * (`GET /preview/{id}` and the frame, as the builder types), and the builder in the inbox.
 * Imports nothing of the server, so the browser can run it.
 */
import { WizardConfigSchema, parseWizardConfig, type WizardConfig } from './config';
import { servedPageProblems, storedPageProblems } from './config-checks';

/** What the server knows and the builder does not. */
export interface PublishCheckOptions {
  /**
   * The origins applications may be sent to besides this server (`SUBMIT_ORIGINS_ALLOWED`,
   * `parseSubmitOrigins` in urls.ts). Given, a `requestUrl` on another origin is a problem
   * (`servedPageProblems`); left out (the builder, which does not know the operator's list), it is
   * not judged here, and the server's refusal at publish is shown at the field.
   */
  submitOrigins?: readonly string[] | undefined;
}

/** A problem of a draft: its JSON path into the configuration (`steps[1].blocks[0].data.fields`) and what is wrong. */
export interface DraftProblem {
  path: string;
  message: string;
  /** What to do about it, where the rulebook says (`ConfigProblem.hint`). */
  hint?: string;
}

/** What {@link publishCheck} finds: the configuration to publish, or the problems that keep it from being published. */
export type PublishCheckResult = { config: WizardConfig; problems?: never } | { config?: never; problems: DraftProblem[] };

/**
 * The configuration's checks at publish: its schema and semantic checks
 * (`parseWizardConfig`: config.ts and config-checks.ts, the rulebook the wizard and the server
 * read), what a stored page must ask (`storedPageProblems`), and that its `pageId` is the page's
 * own and its submits go to it (else the applications would be stored under another page).
 * With `options.submitOrigins`, that its submits go to this server or to an origin the operator allows.
 * @param draft - the draft as typed (any JSON value).
 * @param id - the stored page's id.
 * @returns the configuration with defaults applied, or the problems with JSON paths into it.
 */
export function publishCheck(draft: unknown, id: string, options: PublishCheckOptions = {}): PublishCheckResult {
  const parsed = parseWizardConfig(draft);
  if (parsed.problems) return { problems: parsed.problems.map(({ path, message, hint }) => ({ path, message, hint })) };
  const config: WizardConfig = parsed.config;
  const served = options.submitOrigins ? servedPageProblems(config, options.submitOrigins) : storedPageProblems(config);
  const problems: DraftProblem[] = served.map(({ path, message, hint }) => ({ path, message, hint }));
  if (config.pageId !== id) problems.push({ path: 'pageId', message: `must be "${id}", the page's id` });
  if (config.requestUrl !== undefined && config.requestUrl.startsWith('/api/syncPage/') && config.requestUrl !== `/api/syncPage/${id}`) {
    problems.push({ path: 'requestUrl', message: `must be "/api/syncPage/${id}" (or left out), the page's own submit path` });
  }
  return problems.length > 0 ? { problems } : { config };
}

/**
 * What the preview shows of a draft: the configuration as far as it parses, and every problem
 * {@link publishCheck} finds. A draft that passes the schema but fails a semantic or stored-page
 * check is still shown (the team sees what it is building while it fixes it); one that the schema
 * refuses has no configuration to show (`config` undefined).
 * @param draft - the draft as typed (any JSON value).
 * @param id - the stored page's id.
 * @returns `config`: the schema's output (defaults applied), HTML not yet sanitised; `problems`:
 * empty when the draft would publish.
 */
export function previewCheck(draft: unknown, id: string, options: PublishCheckOptions = {}): { config: WizardConfig | undefined; problems: DraftProblem[] } {
  const checked = publishCheck(draft, id, options);
  if (checked.config) return { config: checked.config, problems: [] };
  const parsed = WizardConfigSchema.safeParse(draft);
  return { config: parsed.success ? parsed.data : undefined, problems: checked.problems };
}
