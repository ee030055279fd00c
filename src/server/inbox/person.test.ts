import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { LOOPBACK, deliveringApp, submitApplication } from '../../../tests/support/delivering-app';
import { startWebhookReceiver, type WebhookReceiver } from '../../../tests/support/webhook-receiver';
import type { PersonExport } from '../../shared/person';

describe.each([
  ['SQLite', () => sqliteExecDatabase('person-')],
  ['PostgreSQL', postgresExecDatabase],
])("a person's data on %s: exported and erased in one step", (_name, createDatabase) => {
  let database: ExecDatabase;
  let receiver: WebhookReceiver;
  let harness: Awaited<ReturnType<typeof deliveringApp>>;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: Record<string, string>, payload?: object) =>
    harness.app.inject({ method, url: `/api/admin${url}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    database = await createDatabase();
    receiver = await startWebhookReceiver();
    harness = await deliveringApp(database.url, {
      webhooks: { deliver: true, allowNetworks: LOOPBACK, sender: { pollMs: 20 } },
      email: { sender: { pollMs: 20 } },
    });
    const { editor } = harness;
    expect(
      (await call('POST', '/webhooks', harness.owner, { url: receiver.url, events: ['application.submitted', 'application.erased'], payload: 'thin' }))
        .statusCode,
    ).toBe(201);
    // A second page: the person applied to both.
    expect((await call('POST', '/pages', editor, { id: 'camp', from: 'default' })).statusCode).toBe(201);
    const page = (await call('GET', '/pages/camp', editor)).json<{ revision: number }>();
    expect((await call('POST', '/pages/camp/publish', editor, { revision: page.revision })).statusCode).toBe(201);
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('exports everything kept about one address, on every page, then erases it all and nothing of anyone else', async () => {
    const { app, editor, viewer } = harness;
    const mine = [
      await submitApplication(app, { emailAddress: 'Lena.Person@example.com', firstName: 'Lena' }),
      await submitApplication(app, { emailAddress: 'lena.person@example.com', firstName: 'Lena' }, 'camp'),
    ];
    const other = await submitApplication(app, { emailAddress: 'someone.else@example.com', firstName: 'Other' });
    expect((await call('PATCH', `/applications/${mine[0]}`, editor, { status: 'shortlisted' })).statusCode).toBe(200);
    expect((await call('POST', `/applications/${mine[0]}/notes`, editor, { text: 'Lena replied on Instagram.' })).statusCode).toBe(201);
    // The confirmations made, the deliveries made, before the export.
    await receiver.waitFor(3);
    await expect
      .poll(
        async () =>
          (await call('GET', '/emails?kind=confirmation', viewer))
            .json<{ items: { applicationId: string }[] }>()
            .items.filter((m) => mine.includes(m.applicationId)).length,
      )
      .toBe(2);

    // Editors only.
    expect((await call('GET', '/people/export?email=lena.person%40example.com', viewer)).statusCode).toBe(403);
    expect((await call('GET', '/people/export?email=not-an-address', editor)).statusCode).toBe(400);
    const exported = await call('GET', '/people/export?email=LENA.PERSON%40example.com', editor);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="person-\d{4}-\d{2}-\d{2}\.json"$/);
    const document = exported.json<PersonExport>();
    expect(document.about).toMatchObject({ email: 'lena.person@example.com', format: 'person-export/1' });
    expect(document.applications.map((application) => [application.id, application.pageId])).toEqual([
      [mine[0], 'creators'],
      [mine[1], 'camp'],
    ]);
    const [first, second] = document.applications;
    expect(first!.status).toBe('shortlisted');
    expect(first!.answers.some((answer) => answer.answer === 'Lena')).toBe(true);
    expect(first!.notes.map((note) => note.text)).toEqual(['Lena replied on Instagram.']);
    expect(first!.history.map((entry) => entry.action)).toEqual(expect.arrayContaining(['status', 'note-added']));
    // The export is in each application's history: who took a copy, and when.
    const history = (await call('GET', `/applications/${mine[1]}`, viewer)).json<{ audit: { action: string; actor: string }[] }>().audit;
    expect(history.at(-1)).toMatchObject({ action: 'exported', actor: 'editor@brand.example' });
    expect(first!.emails.map((email) => [email.kind, email.to])).toEqual([['confirmation', 'Lena.Person@example.com']]);
    expect(first!.emails[0]!.text).toContain('Lena');
    expect(first!.webhookDeliveries.map((delivery) => [delivery.type, delivery.endpoint])).toEqual([['application.submitted', new URL(receiver.url).origin]]);
    expect(second!.pageVersion).toBe(1);
    expect(JSON.stringify(document)).not.toContain('someone.else');

    // Said first (a count, for the question before it), then erased in one step: both applications, with everything about them.
    expect((await call('GET', '/people/erasure?email=lena.person%40example.com', viewer)).statusCode).toBe(403);
    expect((await call('GET', '/people/erasure?email=LENA.person%40example.com', editor)).json()).toEqual({ applications: 2 });
    expect((await call('POST', '/people/erase', viewer, { email: 'lena.person@example.com' })).statusCode).toBe(403);
    const erased = await call('POST', '/people/erase', editor, { email: 'Lena.Person@Example.com' });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json()).toEqual({ erased: 2 });
    for (const id of mine) expect((await call('GET', `/applications/${id}`, viewer)).statusCode).toBe(404);
    expect((await call('GET', `/applications/${other}`, viewer)).statusCode).toBe(200);
    const after = (await call('GET', '/people/export?email=lena.person%40example.com', editor)).json<PersonExport>();
    expect(after.applications).toEqual([]);
    // The e-mail log keeps no address or content of theirs; the endpoints hear of the erasures (ids only).
    const log = (await call('GET', '/emails', viewer)).json<{ items: { applicationId: string; to: string; subject: string }[] }>().items;
    for (const entry of log.filter((item) => mine.includes(item.applicationId))) expect([entry.to, entry.subject]).toEqual(['', '']);
    const told = await receiver.waitFor(5);
    const erasures = told
      .map((request) => JSON.parse(request.body) as { type: string; data: { id: string } })
      .filter((body) => body.type === 'application.erased');
    expect(erasures.map((body) => body.data.id).sort()).toEqual([...mine].sort());
    // Asked again: nothing left to erase.
    expect((await call('POST', '/people/erase', editor, { email: 'lena.person@example.com' })).json()).toEqual({ erased: 0 });
    expect((await call('GET', '/people/erasure?email=lena.person%40example.com', editor)).json()).toEqual({ applications: 0 });
  });
});
