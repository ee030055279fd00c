import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawDefaultConfig, validPayload } from '../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../tests/support/databases';
import { EDITOR, LOOPBACK, VIEWER, deliveringApp } from '../../tests/support/delivering-app';
import { inboxSession } from '../../tests/support/test-app';
import { startSmtpReceiver, type SmtpReceiver } from '../../tests/support/smtp-server';
import { xsrfPair } from '../../tests/support/xsrf';
import type { ApplicationDetail } from '../shared/admin';
import type { PersonExport } from '../shared/person';
import type { EmailLogEntry } from '../shared/emails';
import { parseWizardConfig } from '../shared/config';
import { DEFAULT_MESSAGES, formatMessage } from '../shared/messages';
import { GUARDIAN_CONSENT_PURPOSE } from '../shared/consents';
import { escapeHtml } from '../shared/html';
import { GUARDIAN_LINK_PLACEHOLDER } from './email/signed-links';

// A minor's application on a page that asks a parent or guardian (requirements §20), through the
// HTTP API, a real SMTP server on loopback and an injected clock: held unseen, the guardian
// e-mailed a link that works once; consent releases it, a refusal or 7 days erase it.

/** A clock the test moves: ms since the epoch. */
function movableClock(start: string) {
  let now = Date.parse(start);
  return { clock: () => now, set: (iso: string) => (now = Date.parse(iso)) };
}

const config = parseWizardConfig({ ...rawDefaultConfig(), ageScreen: { minimumAge: 13, minors: 'guardian' } }).config!;

describe.each([
  ['SQLite', () => sqliteExecDatabase('guardian-')],
  ['PostgreSQL', postgresExecDatabase],
])('a minor with a guardian on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let smtp: SmtpReceiver;
  const time = movableClock('2026-11-30T09:00:00.000Z');
  let harness: Awaited<ReturnType<typeof deliveringApp>>;
  let app: FastifyInstance;

  beforeAll(async () => {
    [database, smtp] = await Promise.all([createDatabase(), startSmtpReceiver()]);
    harness = await deliveringApp(database.url, {
      config,
      clock: time.clock,
      webhooks: { deliver: true, allowNetworks: LOOPBACK, sender: { pollMs: 20 } },
      email: { smtpUrl: smtp.url, sender: { pollMs: 20, random: () => 0 } },
      retention: { sweep: true, pollMs: 20 },
    });
    app = harness.app;
  });
  afterAll(async () => {
    await harness?.close();
    await smtp?.close();
    await database?.drop();
  });

  /** A 14-year-old's application naming `guardian`; the answer to it. */
  async function submitMinor(guardian = { name: 'Pat Parent', emailAddress: `pat.${randomUUID().slice(0, 8)}@example.com` }) {
    const payload = { ...validPayload(), age: { birthMonth: '2012-03' }, guardian };
    payload.personalInfo = { ...payload.personalInfo, firstName: 'Mia', emailAddress: `mia.${randomUUID().slice(0, 8)}@example.com` };
    const key = randomUUID();
    const response = await app.inject({ method: 'PUT', url: '/api/syncPage/creators', headers: { ...xsrfPair().headers, 'idempotency-key': key }, payload });
    return { response, payload, key, guardian };
  }

  /** The link of the message the guardian at `address` received. */
  async function linkFor(address: string): Promise<string> {
    await expect.poll(() => smtp.received.some((message) => message.to.includes(address)), { timeout: 10_000 }).toBe(true);
    const message = smtp.received.find((received) => received.to.includes(address))!;
    const link = /https?:\/\/[^\s<>"]+\/guardian\/[^\s<>"]+/.exec(message.mail.text ?? '')?.[0];
    expect(link, message.mail.text).toBeDefined();
    return new URL(link!).pathname;
  }

  const listed = async () => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/applications', headers: harness.viewer });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: unknown[] }>().items;
  };

  it('holds the application unseen, e-mails the guardian a link that works once, and consent releases it with the consent in its history', async () => {
    const { response, payload, key, guardian } = await submitMinor();
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json<{ id: string }>();
    // The same key again: the first answer, nothing held twice.
    const replay = await app.inject({ method: 'PUT', url: '/api/syncPage/creators', headers: { ...xsrfPair().headers, 'idempotency-key': key }, payload });
    expect(replay.statusCode).toBe(200);
    expect(replay.json<{ id: string }>().id).toBe(id);
    expect(await listed()).toEqual([]);
    expect((await app.inject({ method: 'GET', url: `/api/admin/applications/${id}`, headers: harness.viewer })).statusCode).toBe(404);

    const path = await linkFor(guardian.emailAddress);
    const message = smtp.received.find((received) => received.to.includes(guardian.emailAddress))!;
    expect(message.mail.subject).toBe("Your consent is asked for an application to Crazy Aaron's Creator Application");
    expect(message.mail.text).toContain('December 7, 2026');
    // The log keeps the message without its link: no one reading it can answer for the guardian.
    const log = (await app.inject({ method: 'GET', url: '/api/admin/emails?kind=guardian_consent', headers: harness.editor })).json<{
      items: EmailLogEntry[];
    }>();
    // While held, no member reads who it went to.
    expect(log.items.find((item) => item.applicationId === id)).toMatchObject({ to: '', subject: '' });
    // Recorded once sent (the SMTP server has it first).
    await expect.poll(async () => JSON.stringify(await harness.store.emails.ofApplications([id])), { timeout: 10_000 }).toContain(GUARDIAN_LINK_PLACEHOLDER);
    const kept = await harness.store.emails.ofApplications([id]);
    expect(JSON.stringify(kept)).not.toContain(path.split('.').at(-1));

    // A changed link: 404; the page: what was sent and what the brand will do, with two buttons.
    expect((await app.inject({ method: 'GET', url: `${path.slice(0, -2)}xx` })).statusCode).toBe(404);
    const shown = await app.inject({ method: 'GET', url: path });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['referrer-policy']).toBe('no-referrer');
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.body).toContain('Your consent for Mia Lovelace');
    expect(shown.body).toContain(payload.personalInfo.emailAddress);
    expect(shown.body).toContain('value="consent"');
    // In the campaign's look (the wizard's layout and style sheet), as a person reads the answers.
    expect(shown.body).toContain('<main class="link-page">');
    expect(shown.body).toMatch(/<link rel="stylesheet"[^>]*href="\/assets\//);
    expect(shown.body).toContain('<dd>March 2012</dd>');
    expect(shown.body).toContain('<dd>United Kingdom (GB)</dd>');

    const consent = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'decision=consent',
    });
    expect(consent.statusCode).toBe(200);
    expect(consent.body).toContain('Thank you. The application is now with the Crazy Aaron&#39;s Creator Application team.');
    const detail = (await app.inject({ method: 'GET', url: `/api/admin/applications/${id}`, headers: harness.viewer })).json<ApplicationDetail>();
    expect(detail.audit.map((entry) => [entry.action, entry.actor])).toContainEqual(['guardian-consented', 'parent or guardian']);
    expect(detail.answers.find((answer) => answer.key === 'guardian.emailAddress')?.value).toBe(guardian.emailAddress);
    // The consent itself, as a record that proves itself: what the page showed, its SHA-256, when.
    const record = detail.consents.find((consent) => consent.source === 'guardian')!;
    expect(record).toMatchObject({ purpose: GUARDIAN_CONSENT_PURPOSE, given: true, pageVersion: null, lang: 'en', at: expect.any(String) });
    expect(record.text).toContain(DEFAULT_MESSAGES.guardianConsent);
    expect(record.text).toContain(
      escapeHtml(formatMessage(DEFAULT_MESSAGES.guardianPageUse, { campaign: "Crazy Aaron's Creator Application", name: 'Mia Lovelace', months: 24 })),
    );
    expect(record.sha256).toBe(createHash('sha256').update(record.text, 'utf8').digest('hex'));
    // The applicant's confirmation goes now that it is stored.
    await expect.poll(() => smtp.received.some((received) => received.to.includes(payload.personalInfo.emailAddress)), { timeout: 10_000 }).toBe(true);
    // Once: the link is answered.
    const again = await app.inject({ method: 'GET', url: path });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain(DEFAULT_MESSAGES.guardianLinkGone);
    const twice = await app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'decision=refuse' });
    expect(twice.statusCode).toBe(410);
    expect((await app.inject({ method: 'GET', url: `/api/admin/applications/${id}`, headers: harness.viewer })).statusCode).toBe(200);

    // The guardian's own data-subject request finds what is kept about them, and erasure takes the application with their consent.
    const exported = await app.inject({
      method: 'GET',
      url: `/api/admin/people/export?email=${encodeURIComponent(guardian.emailAddress.toUpperCase())}`,
      headers: harness.editor,
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json<PersonExport>()).toMatchObject({
      applications: [],
      consentedAsGuardian: [{ id, pageId: 'creators', guardian, consent: { source: 'guardian', sha256: record.sha256 } }],
    });
    const erased = await app.inject({ method: 'POST', url: '/api/admin/people/erase', headers: harness.editor, payload: { email: guardian.emailAddress } });
    expect(erased.json<{ erased: number }>().erased).toBe(1);
    expect((await app.inject({ method: 'GET', url: `/api/admin/applications/${id}`, headers: harness.viewer })).statusCode).toBe(404);
  });

  it('a refusal erases it, and 7 days without an answer erase it; the links then say so', async () => {
    const refused = await submitMinor();
    const refusedPath = await linkFor(refused.guardian.emailAddress);
    const answer = await app.inject({
      method: 'POST',
      url: refusedPath,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'decision=refuse',
    });
    expect(answer.body).toContain(DEFAULT_MESSAGES.guardianRefused.replace(/'/g, '&#39;'));
    expect(await harness.store.guardians.byEmail(refused.guardian.emailAddress)).toEqual([]);
    expect((await app.inject({ method: 'GET', url: refusedPath })).statusCode).toBe(410);
    // The e-mail that asked is kept without its recipient or content.
    const { id: refusedId } = refused.response.json<{ id: string }>();
    expect(JSON.stringify(await harness.store.emails.ofApplications([refusedId]))).not.toContain(refused.guardian.emailAddress);

    const unanswered = await submitMinor();
    const unansweredPath = await linkFor(unanswered.guardian.emailAddress);
    time.set('2026-12-07T08:59:00.000Z');
    expect((await app.inject({ method: 'GET', url: unansweredPath })).statusCode).toBe(200);
    time.set('2026-12-07T09:00:01.000Z');
    expect((await app.inject({ method: 'GET', url: unansweredPath })).statusCode).toBe(410);
    await expect.poll(() => harness.store.guardians.byEmail(unanswered.guardian.emailAddress), { timeout: 10_000 }).toEqual([]);
    // Neither ever reached the applications.
    for (const { payload } of [refused, unanswered]) expect(await harness.store.applications.idsByEmail(payload.personalInfo.emailAddress)).toEqual([]);
  });

  it('an outside attack: consent and refusal at once, a reused key, a flood of requests to one mailbox, the e-mail log', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // Consent and refusal pressed together: one wins, and what the pages say is what happened.
    const raced = await submitMinor();
    const racedPath = await linkFor(raced.guardian.emailAddress);
    const [consent, refusal] = await Promise.all([
      app.inject({ method: 'POST', url: racedPath, headers: form, payload: 'decision=consent' }),
      app.inject({ method: 'POST', url: racedPath, headers: form, payload: 'decision=refuse' }),
    ]);
    const { id } = raced.response.json<{ id: string }>();
    const stored = await harness.store.applications.findById(id);
    if (stored) {
      expect(refusal.statusCode).toBe(410);
      expect((await harness.store.audit.of(id)).map((entry) => entry.action)).toContain('guardian-consented');
    } else {
      expect(consent.statusCode).toBe(410);
      expect(refusal.body).toContain(DEFAULT_MESSAGES.guardianRefused.replace(/'/g, '&#39;'));
    }

    // The held application's key used again by another application (an adult's, one bot-check solution
    // for both): the key is the held one's, so the other is refused (422), and consent stores the held one.
    const reused = await submitMinor();
    const reusedPath = await linkFor(reused.guardian.emailAddress);
    const other = validPayload();
    other.personalInfo = { ...other.personalInfo, emailAddress: `adult.${randomUUID().slice(0, 8)}@example.com` };
    const adult = await app.inject({
      method: 'PUT',
      url: '/api/syncPage/creators',
      headers: { ...xsrfPair().headers, 'idempotency-key': reused.key },
      payload: { ...other, age: { birthMonth: '1990-01' } },
    });
    expect(adult.statusCode).toBe(422);
    expect(adult.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['Idempotency-Key']);
    expect((await app.inject({ method: 'POST', url: reusedPath, headers: form, payload: 'decision=consent' })).statusCode).toBe(200);
    const released = reused.response.json<{ id: string }>().id;
    expect((await harness.store.applications.findById(released))?.email).toBe(reused.payload.personalInfo.emailAddress);

    // One mailbox named by four requests in a day (case and +tag aside): three e-mails, no more.
    const flooded = `flood.${randomUUID().slice(0, 8)}@example.com`;
    const answers = [];
    for (const address of [flooded, flooded.toUpperCase(), flooded.replace('@', '+1@'), flooded.replace('@', '+2@')])
      answers.push((await submitMinor({ name: 'Pat', emailAddress: address })).response);
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201]);
    // The wizard is told the fourth went unasked (it says so, rather than that the guardian was e-mailed).
    expect(answers.map((answer) => answer.json<{ guardianAsked: boolean }>().guardianAsked)).toEqual([true, true, true, false]);
    await expect
      .poll(() => smtp.received.filter((message) => message.to.some((to) => to.toLowerCase().replace(/\+\d/, '') === flooded)).length, { timeout: 10_000 })
      .toBe(3);

    // The e-mail log: a held application's request names no one, says nothing, to any member
    // (signed in again: the clock moved a week on above).
    const signedIn = async (user: typeof EDITOR) => {
      const session = await inboxSession(app, user);
      return { cookie: session.cookie, 'x-xsrf-token': session.xsrf };
    };
    const [viewer, editor] = [await signedIn(VIEWER), await signedIn(EDITOR)];
    const held = await submitMinor();
    await linkFor(held.guardian.emailAddress);
    const log = (await app.inject({ method: 'GET', url: '/api/admin/emails?kind=guardian_consent', headers: viewer })).json<{
      items: EmailLogEntry[];
    }>();
    const entry = log.items.find((item) => item.applicationId === held.response.json<{ id: string }>().id)!;
    expect(entry).toMatchObject({ to: '', subject: '' });
    const shown = await app.inject({ method: 'GET', url: `/api/admin/emails/${entry.id}`, headers: editor });
    expect(shown.json()).toMatchObject({ to: '', subject: '', html: '', text: '' });
    expect((await app.inject({ method: 'GET', url: `/api/admin/emails/${entry.id}/html`, headers: editor })).body).not.toContain('Mia');
  });

  it("refuses a guardian's address that is the applicant's own", async () => {
    const payload = { ...validPayload(), age: { birthMonth: '2012-03' } };
    const own = await app.inject({
      method: 'PUT',
      url: '/api/syncPage/creators',
      headers: { ...xsrfPair().headers, 'idempotency-key': randomUUID() },
      payload: { ...payload, guardian: { name: 'Me', emailAddress: payload.personalInfo.emailAddress } },
    });
    expect(own.statusCode).toBe(400);
    expect(own.json<{ errors: unknown[] }>().errors).toContainEqual({ path: 'guardian.emailAddress', message: DEFAULT_MESSAGES.guardianEmailOwn });
    expect(own.json<{ errors: unknown[] }>().errors).toContainEqual({ path: 'personalInfo.emailAddress', message: DEFAULT_MESSAGES.ownEmailIsGuardians });
  });
});
