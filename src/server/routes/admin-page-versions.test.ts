import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationDetail, ApplicationList, ApplicationSummary, FilterQuestion } from '../../shared/admin';
import { MAX_PAGE_QUESTIONS, type PageDetail, type PageSummary } from '../../shared/pages';
import { defaultConfig, rawDefaultConfig, validPayload } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { testDist } from '../../../tests/support/test-app';
import { TEST_SECRET, xsrfPair } from '../../../tests/support/xsrf';
import { buildApp } from '../app';
import { SESSION_COOKIE } from '../constants';
import { openStore, type Store } from '../store/store';
import { createTestUser } from '../../../tests/support/users';

const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };

/** Question A: asked by version 1 only (the default page's). */
const A = { key: 'howOften', label: 'How often do you play with our putty?' };
/** Question B: asked from version 2 on. */
const B = { key: 'favouriteColour', label: 'Your favourite colour?' };
/** Asked by both versions, relabelled by version 2. */
const FAMILIAR = { key: 'howFamiliar', v1: "How familiar are you with Crazy Aaron's?", v2: 'How well do you know us?' };

/** Version 2 of the page: A removed, B added at the end of the survey step, howFamiliar relabelled. */
function versionTwo(pageId: string) {
  const config = rawDefaultConfig();
  config.pageId = pageId;
  const survey = config.steps[2].blocks as { component: string; data: { path?: string; label?: string } }[];
  config.steps[2].blocks = survey.filter((block) => block.data.path !== `fields.${A.key}`);
  survey.find((block) => block.data.path === `fields.${FAMILIAR.key}`)!.data.label = `${FAMILIAR.v2} *`;
  config.steps[2].blocks.push({
    component: 'select',
    data: {
      path: `fields.${B.key}`,
      label: `${B.label} *`,
      options: [
        { name: 'Teal', value: 'Teal' },
        { name: 'Coral', value: 'Coral' },
      ],
    },
  });
  config.formItems = (config.formItems as { path: string }[]).filter((item) => item.path !== `fields.${A.key}`);
  config.formItems.push({ path: `fields.${B.key}`, validators: ['required'] });
  return config as unknown;
}

describe.each([
  ['SQLite', () => sqliteExecDatabase('admin-page-versions-')],
  ['PostgreSQL', postgresExecDatabase],
])('the inbox labels a stored page by its versions on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let dir: string;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let session: { cookie: string; xsrf: string };
  /** Application ids: `first` answered version 1, `second` version 2, `third` version 1 again after a rollback. */
  const ids: Record<'first' | 'second' | 'third' | 'onDefault', string> = { first: '', second: '', third: '', onDefault: '' };

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url: `/api/admin${url}`,
      headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf, ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const submit = async (pageId: string, payload: unknown) => {
    const response = await app.inject({
      method: 'PUT',
      url: `/api/syncPage/${pageId}`,
      headers: { ...xsrfPair().headers, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>().id;
  };
  const publish = async (config?: unknown) => {
    const page = (await call('GET', '/pages/camp')).json<PageDetail>();
    let revision = page.revision;
    if (config !== undefined) {
      const saved = await call('PUT', '/pages/camp/draft', { config, revision });
      expect(saved.statusCode, saved.body).toBe(200);
      revision = saved.json<{ revision: number }>().revision;
    }
    const published = await call('POST', '/pages/camp/publish', { revision });
    expect(published.statusCode, published.body).toBe(201);
    return published.json<{ version: number }>().version;
  };
  const detail = async (id: string) => {
    const response = await call('GET', `/applications/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ApplicationDetail>();
  };
  const labelOf = (answers: ApplicationDetail['answers'], key: string) => answers.find((answer) => answer.key === `fields.${key}`)?.label;
  const campQuestions = async () => (await call('GET', '/pages')).json<PageSummary[]>().find((page) => page.id === 'camp')!.questions;
  const listed = async (query: string) =>
    (await call('GET', `/applications?${query}`))
      .json<ApplicationList>()
      .items.map((item) => item.id)
      .sort();
  const csv = async (query: string, encoding = 'identity') => {
    const response = await call('GET', `/applications.csv?${query}`, undefined, { 'accept-encoding': encoding });
    expect(response.statusCode, response.body).toBe(200);
    const text = encoding === 'gzip' ? gunzipSync(response.rawPayload).toString('utf8') : response.body;
    const [header, ...rows] = parse(text, { bom: true }) as string[][];
    return { header: header!, rows: new Map(rows.map((row) => [row[0]!, Object.fromEntries(header!.map((name, index) => [name, row[index]]))])) };
  };

  beforeAll(async () => {
    database = await createDatabase();
    ({ dir } = testDist('admin-page-versions-', { admin: true }));
    store = await openStore(database.url);
    await createTestUser(store, EDITOR, 'editor');
    app = await buildApp({ config: defaultConfig(), store, distDir: join(dir, 'dist'), rateLimitPerMinute: 10_000, secret: TEST_SECRET });
    const signedIn = await app.inject({ method: 'POST', url: '/api/admin/session', payload: EDITOR });
    expect(signedIn.statusCode, signedIn.body).toBe(204);
    const xsrf = signedIn.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    session = { cookie: `${SESSION_COOKIE}=${signedIn.cookies.find((c) => c.name === SESSION_COOKIE)!.value}; XSRF-TOKEN=${xsrf}`, xsrf };

    // Version 1 asks A (the default page's questions); version 2 asks B instead.
    expect((await call('POST', '/pages', { id: 'camp', from: 'default' })).statusCode).toBe(201);
    expect(await publish()).toBe(1);
    ids.first = await submit('camp', validPayload());
    expect(await publish(versionTwo('camp'))).toBe(2);
    const fields = { ...(validPayload().fields as Record<string, string>) };
    delete fields[A.key];
    ids.second = await submit(
      'camp',
      validPayload({ personalInfo: { ...validPayload().personalInfo, emailAddress: 'grace@example.com' }, fields: { ...fields, [B.key]: 'Teal' } }),
    );
    ids.onDefault = await submit(
      defaultConfig().pageId,
      validPayload({ personalInfo: { ...validPayload().personalInfo, emailAddress: 'default@example.com' } }),
    );
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('labels each answer with the question of the version its application answered', async () => {
    const first = await detail(ids.first);
    expect(first.pageVersion).toBe(1);
    // Version 2 removed A: its answer is still shown, with version 1's label.
    expect(labelOf(first.answers, A.key)).toBe(A.label);
    expect(first.answers.find((answer) => answer.key === `fields.${A.key}`)?.value).toBe('Most days');
    expect(labelOf(first.answers, FAMILIAR.key)).toBe(FAMILIAR.v1);
    expect(labelOf(first.answers, B.key)).toBeUndefined();

    const second = await detail(ids.second);
    expect(second.pageVersion).toBe(2);
    expect(labelOf(second.answers, B.key)).toBe(B.label);
    expect(labelOf(second.answers, FAMILIAR.key)).toBe(FAMILIAR.v2);
    expect(labelOf(second.answers, A.key)).toBeUndefined();
    // Personal info keeps its labels from the page's messages.
    expect(second.answers.find((answer) => answer.key === 'personalInfo.emailAddress')).toMatchObject({ label: 'Email', value: 'grace@example.com' });

    // The default page as before: no version.
    const onDefault = await detail(ids.onDefault);
    expect(onDefault.pageVersion).toBeUndefined();
    expect(labelOf(onDefault.answers, A.key)).toBe(A.label);
  });

  it("offers every version's questions to filter on, an earlier version's marked, and finds the applications of that version", async () => {
    const questions = await campQuestions();
    const byKey = new Map(questions.map((question): [string, FilterQuestion] => [question.key, question]));
    expect(byKey.get(FAMILIAR.key)?.label).toBe(FAMILIAR.v2);
    expect(byKey.get(A.key)).toMatchObject({ label: `${A.label} (until version 1)`, kind: 'choice' });
    expect(byKey.get(B.key)).toMatchObject({
      label: B.label,
      kind: 'choice',
      options: [
        { value: 'Teal', label: 'Teal' },
        { value: 'Coral', label: 'Coral' },
      ],
    });
    // A stays where version 1 asked it: after howFamiliar, before B (version 2's last).
    const keys = questions.map((question) => question.key);
    expect(keys.indexOf(A.key)).toBe(keys.indexOf(FAMILIAR.key) + 1);
    expect(keys.at(-1)).toBe(B.key);

    expect(await listed(`pageId=camp&answer=${encodeURIComponent(`${A.key}:Most days`)}`)).toEqual([ids.first]);
    expect(await listed(`pageId=camp&answer=${encodeURIComponent(`${B.key}:Teal`)}`)).toEqual([ids.second]);
    expect(await listed(`pageId=camp&answer=${encodeURIComponent(`${FAMILIAR.key}:Super-Fan`)}`)).toEqual([ids.first, ids.second].sort());
    // The page's detail (the builder) lists the same questions.
    expect((await call('GET', '/pages/camp')).json<PageDetail>().questions).toEqual(questions);
  });

  it("exports every version's columns, headed by the newest label, with the version of each row", async () => {
    for (const encoding of ['identity', 'gzip']) {
      const { header, rows } = await csv('pageId=camp', encoding);
      expect(header.slice(0, 4)).toEqual(['ID', 'Page', 'Page version', 'Received']);
      expect(header).toContain(FAMILIAR.v2);
      expect(header).not.toContain(FAMILIAR.v1);
      expect(header.filter((name) => name.startsWith(A.label))).toEqual([`${A.label} (until version 1)`]);
      expect(header).toContain(B.label);
      expect(rows.size).toBe(2);
      expect(rows.get(ids.first)).toMatchObject({
        'Page version': '1',
        [`${A.label} (until version 1)`]: 'Most days',
        [B.label]: '',
        [FAMILIAR.v2]: 'Super-Fan',
      });
      expect(rows.get(ids.second)).toMatchObject({ 'Page version': '2', [`${A.label} (until version 1)`]: '', [B.label]: 'Teal', [FAMILIAR.v2]: 'Super-Fan' });
    }
    // The default page's export as before: no version column, its own labels.
    const onDefault = await csv(`pageId=${defaultConfig().pageId}`);
    expect(onDefault.header.slice(0, 3)).toEqual(['ID', 'Page', 'Received']);
    expect(onDefault.header).toContain(FAMILIAR.v1);
    expect([...onDefault.rows.keys()]).toEqual([ids.onDefault]);
    // Every page: the default page's columns, then the stored page's others, and the version (empty for the default page).
    const every = await csv('');
    expect(every.header).toContain('Page version');
    expect(every.header).toContain(B.label);
    expect(every.rows.get(ids.onDefault)?.['Page version']).toBe('');
    expect(every.rows.get(ids.second)?.[B.label]).toBe('Teal');
  });

  it("summarises a stored page's answers by every version's questions", async () => {
    const response = await call('GET', '/summary?pageId=camp');
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json<ApplicationSummary>();
    expect(summary).toMatchObject({ pageId: 'camp', matched: 2 });
    const question = (key: string) => summary.questions.find((candidate) => candidate.key === `fields.${key}`);
    expect(question(A.key)).toMatchObject({ label: `${A.label} (until version 1)`, answered: 1 });
    expect(question(A.key)?.options.find((option) => option.value === 'Most days')?.count).toBe(1);
    expect(question(B.key)).toMatchObject({
      label: B.label,
      answered: 1,
      options: [
        { value: 'Teal', label: 'Teal', count: 1 },
        { value: 'Coral', label: 'Coral', count: 0 },
      ],
    });
    expect(question(FAMILIAR.key)).toMatchObject({ label: FAMILIAR.v2, answered: 2 });
    expect((await call('GET', '/summary?pageId=nothing')).statusCode).toBe(404);
  });

  it('labels an application taken after a rollback by the version served again, which it records (no new version)', async () => {
    const rollback = await call('POST', '/pages/camp/versions/1/publish');
    expect(rollback.statusCode, rollback.body).toBe(200);
    ids.third = await submit('camp', validPayload({ personalInfo: { ...validPayload().personalInfo, emailAddress: 'third@example.com' } }));
    const third = await detail(ids.third);
    // A rollback only moves the version served: the application records version 1.
    expect(third.pageVersion).toBe(1);
    expect((await call('GET', '/pages/camp')).json<PageDetail>().versions.map((version) => version.version)).toEqual([1, 2]);
    expect(labelOf(third.answers, A.key)).toBe(A.label);
    expect(labelOf(third.answers, FAMILIAR.key)).toBe(FAMILIAR.v1);

    // A is asked again: offered unmarked; labels stay the newest version's that asks each question.
    const byKey = new Map((await campQuestions()).map((question) => [question.key, question.label]));
    expect(byKey.get(A.key)).toBe(A.label);
    expect(byKey.get(B.key)).toBe(B.label);
    expect(byKey.get(FAMILIAR.key)).toBe(FAMILIAR.v2);
    expect(await listed(`pageId=camp&answer=${encodeURIComponent(`${A.key}:Most days`)}`)).toEqual([ids.first, ids.third].sort());
    const { header, rows } = await csv('pageId=camp');
    expect(header).toContain(A.label);
    expect(rows.get(ids.third)).toMatchObject({ 'Page version': '1', [A.label]: 'Most days', [B.label]: '' });
  });

  it('counts per value the answers to the choice questions of the version served when they were indexed, and no free text', async () => {
    // Version 1 is served again (the rollback above): its choices are recorded, B's no longer.
    const recorded = await database.query<{ key: string }>("select key from tallied_questions where page_id = 'camp' order by key");
    expect(recorded.map((row) => row.key)).toEqual(['campaign.value', 'howFamiliar', 'howOften', 'whichProducts']);
    await call('GET', '/applications/counts?pageId=camp');
    const tallied = await database.query<{ key: string; value: string; n: number | string }>(
      "select key, value, sum(n) as n from application_tallies where page_id = 'camp' and kind = 'answer' group by key, value order by key, value",
    );
    // The second application answered version 2, whose B was a choice then.
    expect(tallied.filter((row) => row.key === B.key).map((row) => [row.value, Number(row.n)])).toEqual([['Teal', 1]]);
    expect(tallied.filter((row) => row.key === 'dreamCampaign')).toEqual([]);
    // Counts stay exact however they are read.
    expect((await call('GET', `/applications/counts?pageId=camp&answer=${encodeURIComponent(`${B.key}:Teal`)}`)).json()).toMatchObject({ all: 1 });
    expect((await call('GET', `/applications/counts?pageId=camp&answer=${encodeURIComponent(`${A.key}:Most days`)}`)).json()).toMatchObject({ all: 2 });
  });

  it("refuses a publish that would make the page's versions ask more than MAX_PAGE_QUESTIONS different questions (fourth attack, F3)", async () => {
    expect((await call('POST', '/pages', { id: 'wide', from: 'default' })).statusCode).toBe(201);
    /** Publishes the default page's questions and 90 more (a version asks at most 100 under `fields.`), named `{prefix}{n}`. */
    const withQuestions = async (prefix: string) => {
      const page = (await call('GET', '/pages/wide')).json<PageDetail>();
      const draft = page.draft as { steps: { blocks: unknown[] }[] };
      draft.steps[2]!.blocks = [
        ...draft.steps[2]!.blocks.slice(0, 6),
        ...Array.from({ length: 90 }, (_, index) => ({ component: 'textField', data: { path: `fields.${prefix}${index}`, label: `${prefix} ${index}?` } })),
      ];
      const saved = await call('PUT', '/pages/wide/draft', { config: draft, revision: page.revision });
      expect(saved.statusCode, saved.body).toBe(200);
      return call('POST', '/pages/wide/publish', { revision: saved.json<{ revision: number }>().revision });
    };
    const prefixes = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const answers = [];
    for (const prefix of prefixes) answers.push(await withQuestions(prefix));
    // Five versions of 90 new questions each pass (with the default page's own), the sixth would pass 500.
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201, 201, 422, 422]);
    expect(answers[5]!.json<{ errors: { path: string; message: string }[] }>().errors).toEqual([
      { path: 'steps', message: expect.stringContaining(`at most ${MAX_PAGE_QUESTIONS}`) as string },
    ]);
    // Asking again what earlier versions asked is no new question.
    expect((await withQuestions('a')).statusCode).toBe(201);
  });
});
