import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawDefaultConfig } from '../../tests/factories/application';
import { postgresExecDatabase, type ExecDatabase } from '../../tests/support/databases';
import { deliveringApp, submitApplication } from '../../tests/support/delivering-app';
import type { ApplicationDetail, ApplicationSummary } from '../shared/admin';
import { parseWizardConfig } from '../shared/config';
import type { PageSummary } from '../shared/pages';
import { FILE_PAGES_REFRESH_MS } from './file-pages';

// Two servers on one PostgreSQL database, each with its own configuration file (docs/decisions/034,
// "Two servers on one database"): each records its file's page as it starts, and each inbox labels,
// lists and summarises the other's page's applications by that page's own questions.

/** A second file page: its own id, title and words for the dream-campaign question. */
function secondPage() {
  const raw = rawDefaultConfig();
  raw.pageId = 'second';
  raw.title = 'Deuxième page';
  const block = raw.steps
    .flatMap((step: { blocks: { data?: { path?: string; label?: string } }[] }) => step.blocks)
    .find((candidate: { data?: { path?: string } }) => candidate.data?.path === 'fields.dreamCampaign');
  block.data.label = 'Décrivez la campagne de vos rêves';
  return parseWizardConfig(raw).config!;
}

describe('two servers on one database, each with its own file page', () => {
  let database: ExecDatabase;
  let first: Awaited<ReturnType<typeof deliveringApp>>;
  let second: Awaited<ReturnType<typeof deliveringApp>>;
  let now = Date.parse('2026-11-30T09:00:00.000Z');

  beforeAll(async () => {
    database = await postgresExecDatabase();
    first = await deliveringApp(database.url, { webhooks: { deliver: false }, clock: () => now });
    second = await deliveringApp(database.url, { webhooks: { deliver: false }, config: secondPage() });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await database?.drop();
  });

  it("labels, lists and summarises the other server's page by its own questions, whichever server took the application", async () => {
    const id = await submitApplication(second.app, {}, 'second');
    // The first server started before the second recorded its page: it reads the others' again within 5 s.
    now += FILE_PAGES_REFRESH_MS;
    for (const { app, editor } of [first, second]) {
      const detail = await app.inject({ method: 'GET', url: `/api/admin/applications/${id}`, headers: editor });
      expect(detail.statusCode, detail.body).toBe(200);
      const answers = detail.json<ApplicationDetail>().answers.map((answer) => answer.label);
      expect(answers).toContain('Décrivez la campagne de vos rêves');
      const pages = await app.inject({ method: 'GET', url: '/api/admin/pages', headers: editor });
      const listed = pages.json<PageSummary[]>();
      expect(listed.map((page) => page.id).sort()).toEqual(['creators', 'second']);
      const page = listed.find((candidate) => candidate.id === 'second')!;
      expect(page).toMatchObject({ title: 'Deuxième page', default: true, applications: 1 });
      expect(page.questions.map((question) => question.label)).toContain('Décrivez la campagne de vos rêves');
      const summary = await app.inject({ method: 'GET', url: '/api/admin/summary?pageId=second', headers: editor });
      expect(summary.statusCode, summary.body).toBe(200);
      expect(summary.json<ApplicationSummary>().matched).toBe(1);
    }
    // Each server serves its own page only: the other's is not one it takes applications for.
    const elsewhere = await first.app.inject({ method: 'GET', url: '/api/admin/pages', headers: first.editor });
    expect(elsewhere.json<PageSummary[]>().find((page) => page.id === 'second')?.elsewhere).toBe(true);
    expect((await first.app.inject({ method: 'GET', url: '/?page=second' })).body).not.toContain('Deuxième page');
  });
});
