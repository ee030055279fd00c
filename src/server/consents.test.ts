import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawDefaultConfig, validPayload } from '../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../tests/support/databases';
import { LOOPBACK, deliveringApp } from '../../tests/support/delivering-app';
import { startSmtpReceiver, type SmtpReceiver } from '../../tests/support/smtp-server';
import { startWebhookReceiver, type WebhookReceiver } from '../../tests/support/webhook-receiver';
import { xsrfPair } from '../../tests/support/xsrf';
import type { ApplicationDetail } from '../shared/admin';
import { parseWizardConfig } from '../shared/config';
import type { PersonExport } from '../shared/person';
import { DEFAULT_MESSAGES } from '../shared/messages';
import { sanitizeConfigHtml } from '../shared/sanitize-html';
import { CONSENT_LINK_PLACEHOLDER } from './email/signed-links';

// Consent records (requirements §21) through the HTTP API, a real SMTP server and a webhook receiver
// on loopback: what was shown and said is kept per purpose, the inbox and the export show it, and
// the confirmation's link withdraws a consent as easily as it was given.

const AD_DISCLOSURE = 'I will mark every sponsored post clearly (#ad), as the <a href="https://www.ftc.gov/influencers">FTC asks</a>.';
const NEWSLETTER = 'Send me the next campaigns by e-mail.';
const raw = rawDefaultConfig();
raw.privacyVersion = '2026-11';
raw.steps[2].blocks.push(
  { component: 'consent', data: { purpose: 'adDisclosure', required: true, label: AD_DISCLOSURE } },
  { component: 'consent', data: { purpose: 'newsletter', label: NEWSLETTER } },
);
const config = parseWizardConfig(raw).config!;

describe.each([
  ['SQLite', () => sqliteExecDatabase('consents-')],
  ['PostgreSQL', postgresExecDatabase],
])('consents on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let smtp: SmtpReceiver;
  let receiver: WebhookReceiver;
  let harness: Awaited<ReturnType<typeof deliveringApp>>;
  let app: FastifyInstance;

  beforeAll(async () => {
    [database, smtp, receiver] = await Promise.all([createDatabase(), startSmtpReceiver(), startWebhookReceiver()]);
    harness = await deliveringApp(database.url, {
      config,
      webhooks: { deliver: true, allowNetworks: LOOPBACK, sender: { pollMs: 20 } },
      email: { smtpUrl: smtp.url, sender: { pollMs: 20, random: () => 0 } },
    });
    app = harness.app;
  });
  afterAll(async () => {
    await harness?.close();
    await Promise.all([smtp?.close(), receiver?.close()]);
    await database?.drop();
  });

  const submit = (consents: Record<string, unknown> | undefined, email = `ada.${randomUUID().slice(0, 8)}@example.com`) => {
    const payload = validPayload();
    payload.personalInfo = { ...payload.personalInfo, emailAddress: email };
    return app.inject({
      method: 'PUT',
      url: '/api/syncPage/creators',
      headers: { ...xsrfPair().headers, 'idempotency-key': randomUUID() },
      payload: consents === undefined ? payload : { ...payload, consents },
    });
  };

  it('refuses an application without a required consent, or with one the page does not ask', async () => {
    expect((await submit(undefined)).json<{ errors: unknown[] }>().errors).toContainEqual({
      path: 'consents.adDisclosure',
      message: DEFAULT_MESSAGES.required,
    });
    expect((await submit({ adDisclosure: false, newsletter: true })).statusCode).toBe(400);
    expect((await submit({ adDisclosure: true, marketing: true })).json<{ errors: unknown[] }>().errors).toContainEqual({
      path: 'consents.marketing',
      message: DEFAULT_MESSAGES.notAsked,
    });
    expect((await submit({ adDisclosure: 'yes' })).statusCode).toBe(400);
  });

  it('keeps per purpose the text shown and its SHA-256, the version, language, privacy notice and time, given or not; withdrawal is one press, recorded and told', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/webhooks',
      headers: harness.owner,
      payload: { url: receiver.url, events: ['consent.withdrawn'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const email = `consenting.${randomUUID().slice(0, 8)}@example.com`;
    const response = await submit({ adDisclosure: true, newsletter: true }, email);
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json<{ id: string }>();
    const detail = () => app.inject({ method: 'GET', url: `/api/admin/applications/${id}`, headers: harness.viewer }).then((r) => r.json<ApplicationDetail>());
    const { consents, answers } = await detail();
    const shown = sanitizeConfigHtml(AD_DISCLOSURE);
    expect(consents).toEqual([
      {
        purpose: 'adDisclosure',
        given: true,
        text: shown,
        sha256: createHash('sha256').update(shown).digest('hex'),
        pageVersion: null,
        lang: 'en',
        privacyVersion: '2026-11',
        at: expect.any(String),
        source: 'application',
      },
      expect.objectContaining({ purpose: 'newsletter', given: true, text: NEWSLETTER, source: 'application' }),
    ]);
    expect(answers.find((answer) => answer.key === 'consents.newsletter')?.value).toBe('Yes');

    // The confirmation carries the creator's link; the log keeps the message without it.
    await expect.poll(() => smtp.received.some((message) => message.to.includes(email)), { timeout: 10_000 }).toBe(true);
    const confirmation = smtp.received.find((message) => message.to.includes(email))!;
    const link = /https?:\/\/[^\s<>"]+\/consents\/[^\s<>"]+/.exec(confirmation.mail.text ?? '')?.[0];
    expect(link, confirmation.mail.text).toBeDefined();
    const path = new URL(link!).pathname;
    const kept = JSON.stringify(await harness.store.emails.ofApplications([id]));
    expect(kept).toContain(CONSENT_LINK_PLACEHOLDER);
    expect(kept).not.toContain(path.split('.').at(-1));

    expect((await app.inject({ method: 'GET', url: `${path.slice(0, -2)}xx` })).statusCode).toBe(404);
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain('I will mark every sponsored post clearly (#ad), as the FTC asks.');
    expect(page.body.match(/name="purpose"/g)).toHaveLength(2);

    const withdraw = (purpose: string) =>
      app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `purpose=${purpose}` });
    const after = await withdraw('newsletter');
    expect(after.statusCode).toBe(200);
    expect(after.body).toMatch(/Withdrawn on /);
    expect(after.body.match(/name="purpose"/g)).toHaveLength(1);
    // Withdrawn twice: nothing more.
    await withdraw('newsletter');
    const records = (await detail()).consents;
    expect(records.map((record) => [record.purpose, record.given, record.source])).toEqual([
      ['adDisclosure', true, 'application'],
      ['newsletter', true, 'application'],
      ['newsletter', false, 'withdrawal'],
    ]);
    expect(records[2]!.text).toBe(NEWSLETTER);
    // The answer reads as withdrawn, with when, where it read Yes.
    expect((await detail()).answers.find((answer) => answer.key === 'consents.newsletter')).toMatchObject({
      value: 'Yes',
      text: `Withdrawn ${records[2]!.at}`,
    });
    expect((await detail()).audit.filter((entry) => entry.action === 'consent-withdrawn')).toEqual([
      expect.objectContaining({ actor: 'applicant', to: 'newsletter' }),
    ]);
    const [told] = await receiver.waitFor(1);
    expect(JSON.parse(told!.body)).toMatchObject({ type: 'consent.withdrawn', data: { id, pageId: 'creators', purpose: 'newsletter' } });

    // The CSV: a column per consent, a withdrawn one saying so and when.
    const csv = await app.inject({ method: 'GET', url: '/api/admin/applications.csv', headers: harness.viewer });
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    const row = lines.find((line) => line.startsWith(id))!;
    expect(header).toContain(NEWSLETTER);
    expect(row).toMatch(new RegExp(`,Yes,Withdrawn ${records[2]!.at.replace(/[.]/g, '\\.')}`));

    // The person's export holds the records; erasure takes the withdrawals with the application.
    const exported = await app.inject({ method: 'GET', url: `/api/admin/people/export?email=${encodeURIComponent(email)}`, headers: harness.editor });
    expect(exported.json<PersonExport>().applications[0]!.consents).toHaveLength(3);
    expect(exported.json<PersonExport>().applications[0]!.answers).toContainEqual({ question: expect.any(String), answer: `Withdrawn ${records[2]!.at}` });
    const erased = await app.inject({ method: 'POST', url: '/api/admin/people/erase', headers: harness.editor, payload: { email } });
    expect(erased.json<{ erased: number }>().erased).toBe(1);
    expect(await harness.store.consents.records(id)).toEqual([]);
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
  });
});
