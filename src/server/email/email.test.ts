import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, validPayload } from '../../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { startSmtpReceiver, type ReceivedEmail, type SmtpReceiver } from '../../../tests/support/smtp-server';
import { inboxSession } from '../../../tests/support/test-app';
import { EDITOR, LOOPBACK, VIEWER, deliveringApp, submitApplication } from '../../../tests/support/delivering-app';
import { startWebhookReceiver, type WebhookReceiver } from '../../../tests/support/webhook-receiver';
import type { EmailLogEntry, EmailMessage, NotificationSetting } from '../../shared/emails';
import { DECISION_EMAIL_DELAY_MS } from '../../shared/emails';
import type { EmailOptions } from '../app';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { EmailRepository } from '../store/emails';
import { answerColumns } from '../inbox/answers';
import type { Database } from '../store/schema';
import { openStore } from '../store/store';

/** A clock the test moves: the store's, the senders'. */
function movableClock(start: string) {
  let now = Date.parse(start);
  return { clock: () => now, set: (iso: string) => void (now = Date.parse(iso)), advance: (ms: number) => void (now += ms) };
}

/** An app that delivers (webhooks and e-mail) over `url`'s store, with an editor's and a viewer's sessions; the page sends decision e-mails. */
async function emailApp(url: string, email: EmailOptions, clock: () => number) {
  const config = defaultConfig();
  config.emails.accepted.enabled = true;
  config.emails.declined.enabled = true;
  config.emails.declined.body = 'Dear {firstName},\n\nnot this time for {campaign}.';
  return deliveringApp(url, {
    config,
    clock,
    webhooks: { deliver: true, allowNetworks: LOOPBACK, publicUrl: 'https://apply.brand.example', sender: { pollMs: 20 } },
    email: { ...email, sender: { pollMs: 20, random: () => 0, ...email.sender } },
  });
}

/** Submits one application to the default page as the wizard does, from `email` (and `firstName`); returns its id. */
function submit(app: FastifyInstance, email: string, firstName = 'Ada'): Promise<string> {
  return submitApplication(app, { emailAddress: email, firstName });
}

/** The e-mail log, newest first. */
async function log(app: FastifyInstance, headers: Record<string, string>): Promise<EmailLogEntry[]> {
  const response = await app.inject({ method: 'GET', url: '/api/admin/emails', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ items: EmailLogEntry[] }>().items;
}

/** Waits until the log holds a message `matches` finds (polling, up to 10 s). */
async function logged(app: FastifyInstance, headers: Record<string, string>, matches: (entry: EmailLogEntry) => boolean): Promise<EmailLogEntry> {
  const until = performance.now() + 10_000;
  for (;;) {
    const found = (await log(app, headers)).find(matches);
    if (found) return found;
    if (performance.now() > until) throw new Error(`no such message in the log: ${JSON.stringify(await log(app, headers))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A header of a received message as sent (unfolded), or ''. */
function header(message: ReceivedEmail, name: string): string {
  const line = message.mail.headerLines.find((candidate) => candidate.key === name)?.line ?? '';
  return line.replace(/\r?\n[ \t]+/g, ' ').replace(/^[^:]+:\s*/, '');
}

describe.each([
  ['SQLite', () => sqliteExecDatabase('email-')],
  ['PostgreSQL', postgresExecDatabase],
])('e-mail through SMTP on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let smtp: SmtpReceiver;
  let harness: Awaited<ReturnType<typeof emailApp>>;
  const time = movableClock('2026-11-30T10:00:00.000Z');

  beforeAll(async () => {
    database = await createDatabase();
    smtp = await startSmtpReceiver();
    harness = await emailApp(database.url, { smtpUrl: smtp.url, from: 'Crazy Aaron <creators@brand.example>' }, time.clock);
  });
  afterAll(async () => {
    await harness?.close();
    await smtp?.close();
    await database?.drop();
  });

  it('confirms a stored application to the address given: the campaign, the answers, the privacy link, HTML and text', async () => {
    const { app, editor } = harness;
    const id = await submit(app, 'ada.confirm@example.com');
    const [message] = (await smtp.waitFor(1)).filter((received) => received.to.includes('ada.confirm@example.com'));
    expect(message).toBeDefined();
    const { mail } = message!;
    expect(mail.from?.value).toEqual([{ name: 'Crazy Aaron', address: 'creators@brand.example' }]);
    expect(mail.subject).toBe("We received your application to Crazy Aaron's Creator Application");
    expect(mail.html).toContain('lang="en"');
    expect(mail.html).toContain('https://crazyaaronsputty.example/privacy');
    expect(mail.text).toContain('Hi Ada,');
    expect(mail.text).toContain('ada.confirm@example.com');
    // A summary of the answers, labelled as the page asks them.
    expect(mail.text).toMatch(/Instagram handle/i);
    const entry = await logged(app, editor, (item) => item.applicationId === id && item.kind === 'confirmation' && item.state === 'sent');
    expect(entry.to).toBe('ada.confirm@example.com');
    const full = (await app.inject({ method: 'GET', url: `/api/admin/emails/${entry.id}`, headers: editor })).json<EmailMessage>();
    expect(full.html).toContain('Hi Ada,');
    expect(full.text).toContain('Hi Ada,');
  });

  it('notifies a member who asked for each application, with a one-click unsubscription that needs no session', async () => {
    const { app, editor, viewer } = harness;
    const settings = (await app.inject({ method: 'GET', url: '/api/admin/notifications', headers: viewer })).json<NotificationSetting[]>();
    expect(settings).toEqual([{ pageId: 'creators', title: "Crazy Aaron's Creator Application", mode: 'digest' }]);
    const put = await app.inject({ method: 'PUT', url: '/api/admin/notifications/creators', headers: viewer, payload: { mode: 'immediate' } });
    expect(put.statusCode, put.body).toBe(200);
    const before = smtp.received.length;
    await submit(app, 'grace.notify@example.com', 'Grace');
    await smtp.waitFor(before + 2);
    const notification = smtp.received.slice(before).find((received) => received.to.includes(VIEWER.email));
    expect(notification, 'the viewer was notified').toBeDefined();
    expect(notification!.mail.subject).toBe(
      "New application to Crazy Aaron's Creator Application: Grace Hopper".replace('Grace Hopper', `Grace ${validPayload().personalInfo.lastName}`),
    );
    expect(notification!.mail.html).toContain('https://apply.brand.example/admin/applications/');
    expect(
      smtp.received.slice(before).some((received) => received.to.includes(EDITOR.email)),
      'the editor, on the digest, was not',
    ).toBe(false);
    expect(header(notification!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const url = new URL(/^<(https:[^>]+)>$/.exec(header(notification!, 'list-unsubscribe'))![1]!);
    expect(url.origin).toBe('https://apply.brand.example');
    // A forged token changes nothing.
    const forged = new URL(url);
    forged.searchParams.set('u', 'someone-else');
    expect(
      (
        await app.inject({
          method: 'POST',
          url: forged.pathname + forged.search,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'List-Unsubscribe=One-Click',
        })
      ).statusCode,
    ).toBe(400);
    // GET (a link scanner) changes nothing either; it shows a button.
    const shown = await app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<button type="submit">Unsubscribe</button>');
    expect((await app.inject({ method: 'GET', url: '/api/admin/notifications', headers: viewer })).json<NotificationSetting[]>()[0]!.mode).toBe('immediate');
    // A body a mail client never sends is refused, saying what it takes.
    const plain = await app.inject({ method: 'POST', url: url.pathname + url.search, headers: { 'content-type': 'text/plain' }, payload: 'unsubscribe' });
    expect(plain.statusCode).toBe(415);
    expect(plain.json<{ detail: string }>().detail).toBe('Send the form as application/x-www-form-urlencoded or multipart/form-data.');
    // The mail client's one-click POST (RFC 8058), without cookie or anti-forgery token.
    const posted = await app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(posted.statusCode, posted.body).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/admin/notifications', headers: viewer })).json<NotificationSetting[]>()[0]!.mode).toBe('off');
    // The editor's setting is the editor's own.
    expect((await app.inject({ method: 'GET', url: '/api/admin/notifications', headers: editor })).json<NotificationSetting[]>()[0]!.mode).toBe('digest');
  });

  it("sends a decision's e-mail 5 minutes after it, and not at all when it is undone within them", async () => {
    const { app, editor } = harness;
    const id = await submit(app, 'ada.decision@example.com');
    const patch = (status: string) => app.inject({ method: 'PATCH', url: `/api/admin/applications/${id}`, headers: editor, payload: { status } });
    // A mis-pressed accept, undone a minute later.
    expect((await patch('accepted')).statusCode).toBe(200);
    const waiting = await logged(app, editor, (item) => item.applicationId === id && item.kind === 'accepted');
    expect(waiting.state).toBe('pending');
    expect(Date.parse(waiting.nextAttemptAt!)).toBe(time.clock() + DECISION_EMAIL_DELAY_MS);
    time.advance(60_000);
    expect((await patch('new')).statusCode).toBe(200);
    await logged(app, editor, (item) => item.id === waiting.id && item.state === 'cancelled');
    // Declined for real: sent once its 5 minutes have passed, with the page's own text.
    expect((await patch('declined')).statusCode).toBe(200);
    const declined = await logged(app, editor, (item) => item.applicationId === id && item.kind === 'declined');
    expect(declined.state).toBe('pending');
    time.advance(DECISION_EMAIL_DELAY_MS - 1000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await log(app, editor)).find((item) => item.id === declined.id)!.state).toBe('pending');
    time.advance(2000);
    await logged(app, editor, (item) => item.id === declined.id && item.state === 'sent');
    const received = smtp.received.filter((message) => message.to.includes('ada.decision@example.com'));
    expect(received.map((message) => message.mail.subject)).toEqual([
      "We received your application to Crazy Aaron's Creator Application",
      "Your application to Crazy Aaron's Creator Application",
    ]);
    expect(received[1]!.mail.text).toContain("not this time for Crazy Aaron's Creator Application.");
  });

  it('tries a message the SMTP server deferred again later, and gives up on one it refused', async () => {
    const { app, editor } = harness;
    smtp.answers.push({ code: 451, message: 'Try again later' });
    const deferredId = await submit(app, 'ada.deferred@example.com');
    const deferred = await logged(app, editor, (item) => item.applicationId === deferredId && item.kind === 'confirmation' && item.attempts === 1);
    expect(deferred.state).toBe('pending');
    expect(deferred.lastError).toMatch(/Try again later/);
    expect(Date.parse(deferred.nextAttemptAt!)).toBe(time.clock() + 60_000);
    time.advance(61_000);
    await logged(app, editor, (item) => item.id === deferred.id && item.state === 'sent' && item.attempts === 2);
    smtp.answers.push({ code: 550, message: 'No such mailbox' });
    const refusedId = await submit(app, 'nobody@example.com');
    const refused = await logged(app, editor, (item) => item.applicationId === refusedId && item.kind === 'confirmation' && item.state === 'failed');
    expect(refused.lastError).toMatch(/No such mailbox/);
    expect(refused.attempts).toBe(1);
    // An SMTP error may name the recipient: erasure does not keep it.
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/applications/${refusedId}`, headers: editor })).statusCode).toBe(204);
    const erased = (await log(app, editor)).find((item) => item.id === refused.id)!;
    expect(erased).toMatchObject({ state: 'failed', to: '', subject: '', lastError: 'The application was erased.' });
  });

  it("erasing an application removes its e-mail's recipient and content from the log", async () => {
    const { app, editor } = harness;
    const id = await submit(app, 'ada.erase@example.com');
    const sent = await logged(app, editor, (item) => item.applicationId === id && item.state === 'sent');
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/applications/${id}`, headers: editor })).statusCode).toBe(204);
    const after = (await app.inject({ method: 'GET', url: `/api/admin/emails/${sent.id}`, headers: editor })).json<EmailMessage>();
    expect(after).toMatchObject({ to: '', subject: '', html: '', text: '', state: 'sent' });
    const everything = JSON.stringify(await log(app, editor));
    expect(everything).not.toContain('ada.erase@example.com');
  });

  it('e-mails every editor when an endpoint is disabled', async () => {
    const { app, editor } = harness;
    let receiver: WebhookReceiver | undefined = await startWebhookReceiver();
    try {
      receiver.answers.push(410);
      const created = await app.inject({
        method: 'POST',
        url: '/api/admin/webhooks',
        headers: harness.owner,
        payload: { url: receiver.url, events: ['application.submitted'] },
      });
      expect(created.statusCode).toBe(201);
      const before = smtp.received.length;
      await submit(app, 'ada.gone@example.com');
      await logged(app, editor, (item) => item.kind === 'endpoint_disabled' && item.state === 'sent');
      const told = smtp.received.slice(before).find((message) => message.to.includes(EDITOR.email));
      expect(told?.mail.subject).toBe('A webhook endpoint was disabled');
      expect(told?.mail.text).toContain('410 Gone');
      expect(smtp.received.slice(before).some((message) => message.to.includes(VIEWER.email) && message.mail.subject === told?.mail.subject)).toBe(false);
    } finally {
      await receiver.close();
      receiver = undefined;
    }
  });

  it("makes each member's daily digest once, after its hour, counting the day's applications of the pages on the digest", async () => {
    const { app } = harness;
    // The applications above arrived on the 30th, from 10:00; the digest of 1 December at 08:00 counts them.
    time.set('2026-12-01T07:59:00.000Z');
    // A day later: the sessions have ended.
    const session = await inboxSession(app, EDITOR);
    const editor = { cookie: session.cookie, 'x-xsrf-token': session.xsrf };
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await log(app, editor)).some((item) => item.kind === 'digest')).toBe(false);
    time.set('2026-12-01T08:01:00.000Z');
    const digest = await logged(app, editor, (item) => item.kind === 'digest' && item.to === EDITOR.email && item.state === 'sent');
    expect(digest.to).toBe(EDITOR.email);
    const received = smtp.received.find((message) => message.to.includes(EDITOR.email) && message.mail.subject?.includes('in the last 24 hours'));
    expect(received?.mail.subject).toMatch(/^\d+ new applications in the last 24 hours$/);
    expect(header(received!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // The viewer unsubscribed from the page: no digest. Another minute: no second digest.
    time.advance(120_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await log(app, editor)).filter((item) => item.kind === 'digest' && item.to === EDITOR.email)).toHaveLength(1);
  });
});

describe('an SMTP server that refuses to sign in (a wrong password in SMTP_URL)', () => {
  it('keeps the message and tries it again on the schedule, and at once after a restart: the operator mends the password, not the creator', async () => {
    const database = await sqliteExecDatabase('email-auth-');
    const smtp = await startSmtpReceiver();
    const time = movableClock('2026-11-30T10:00:00.000Z');
    const harness = await emailApp(database.url, { smtpUrl: smtp.url.replace(/:[^:@]+@/, ':wrong-password@') }, time.clock);
    try {
      const id = await submit(harness.app, 'ada.auth@example.com');
      const entry = await logged(harness.app, harness.editor, (item) => item.applicationId === id && item.attempts === 1);
      expect(entry.state).toBe('pending');
      expect(Date.parse(entry.nextAttemptAt!)).toBe(time.clock() + 60_000);
      expect(smtp.received).toHaveLength(0);
      // Mended and restarted: what waited is sent at once, not at its next attempt (an hour away after a few).
      await harness.close();
      const mended = await emailApp(database.url, { smtpUrl: smtp.url }, time.clock);
      try {
        await logged(mended.app, mended.editor, (item) => item.id === entry.id && item.state === 'sent');
        expect(smtp.received.map((message) => message.to)).toEqual([['ada.auth@example.com']]);
      } finally {
        await mended.close();
      }
    } finally {
      await harness.close();
      await smtp.close();
      await database.drop();
    }
  });
});

describe('planning decision e-mails', () => {
  it('keeps only the last decision of an application whose changes were dispatched together (accepted, undone, accepted again)', async () => {
    const database = await sqliteExecDatabase('email-plan-');
    // The store's schema, then the repository on a connection of the test's own.
    await (await openStore(database.url)).close();
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(database.url.slice('sqlite:'.length)) }) });
    const emails = new EmailRepository(db);
    try {
      const config = defaultConfig();
      config.emails.accepted.enabled = true;
      const event = (n: number, status: string) => ({
        event_id: `msg_${n}`,
        type: 'application.status_changed',
        occurred_at: new Date(Date.UTC(2026, 10, 30, 10, 0, n)).toISOString(),
        page_id: 'creators',
        application_id: 'app-1',
        data: JSON.stringify({ status }),
      });
      const made = await db
        .transaction()
        .execute((trx) => emails.plan(trx, [event(1, 'accepted'), event(2, 'new'), event(3, 'accepted')], () => config.emails));
      expect(made).toBe(1);
      const rows = await database.query<{ dedupe_key: string }>('select dedupe_key from email_messages');
      expect(rows.map((row) => row.dedupe_key)).toEqual(['decision:msg_3']);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});

describe('e-mail without SMTP_URL', () => {
  let database: ExecDatabase;
  let harness: Awaited<ReturnType<typeof emailApp>>;

  beforeAll(async () => {
    database = await sqliteExecDatabase('email-log-');
    harness = await emailApp(database.url, {}, () => Date.now());
  });
  afterAll(async () => {
    await harness?.close();
    await database?.drop();
  });

  it('keeps every message in the log with its content, sent to no one', async () => {
    const { app, viewer } = harness;
    const id = await submit(app, 'ada.kept@example.com');
    const entry = await logged(app, viewer, (item) => item.applicationId === id && item.kind === 'confirmation');
    expect(entry.state).toBe('logged');
    const message = (await app.inject({ method: 'GET', url: `/api/admin/emails/${entry.id}`, headers: viewer })).json<EmailMessage>();
    expect(message.to).toBe('ada.kept@example.com');
    expect(message.html).toContain('Hi Ada,');
  });

  it("sends one mailbox at most three confirmations a day, whatever its case or +tag: typing a stranger's address floods no one", async () => {
    const { app, viewer } = harness;
    const ids: string[] = [];
    for (const address of ['victim@example.com', 'Victim+1@example.com', 'VICTIM@example.com', 'victim+2@EXAMPLE.com', 'victim+x@example.com'])
      ids.push(await submit(app, address));
    const entries = await Promise.all(
      ids.map((id) => logged(app, viewer, (item) => item.applicationId === id && item.kind === 'confirmation' && item.state !== 'pending')),
    );
    expect(entries.filter((entry) => entry.state === 'logged')).toHaveLength(3);
    const refused = entries.filter((entry) => entry.state === 'cancelled');
    expect(refused).toHaveLength(2);
    expect(refused[0]!.lastError).toBe('This address was sent 3 confirmations in the last 24 hours.');
  });

  it('lists the log by kind and state, page after page', async () => {
    const { app, viewer } = harness;
    const list = async (query: string) => app.inject({ method: 'GET', url: `/api/admin/emails${query}`, headers: viewer });
    const all = (await list('')).json<{ items: EmailLogEntry[] }>().items;
    expect(all.length).toBeGreaterThan(0);
    const logged = (await list('?state=logged&kind=confirmation')).json<{ items: EmailLogEntry[] }>().items;
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((entry) => entry.state === 'logged' && entry.kind === 'confirmation')).toBe(true);
    expect(logged.length).toBe(all.filter((entry) => entry.state === 'logged' && entry.kind === 'confirmation').length);
    const refused = await list('?state=lost');
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toContain('application/problem+json');
  });

  it("previews a page's confirmation with the page's own questions, each with an example answer", async () => {
    const { app, viewer } = harness;
    const response = await app.inject({ method: 'GET', url: '/api/admin/pages/creators/email-preview/confirmation', headers: viewer });
    expect(response.statusCode, response.body).toBe(200);
    const labels = answerColumns(defaultConfig())
      .map((column) => column.label)
      .filter((label) => /^[\w ]+$/.test(label));
    expect(labels.length).toBeGreaterThan(3);
    for (const label of labels) expect(response.body).toContain(label);
    expect(response.body).toContain('alex.makes');
  });

  it("previews a page's draft texts for editors, in the draft's language", async () => {
    const { app, editor, viewer } = harness;
    const body = { kind: 'confirmation', title: 'Été créatif', lang: 'fr', emails: { confirmation: { enabled: true } }, privacyUrl: '/privacy' };
    expect((await app.inject({ method: 'POST', url: '/api/admin/email-preview', headers: viewer, payload: body })).statusCode).toBe(403);
    const preview = await app.inject({ method: 'POST', url: '/api/admin/email-preview', headers: editor, payload: body });
    expect(preview.statusCode, preview.body).toBe(200);
    const { subject, html } = preview.json<{ subject: string; html: string }>();
    expect(subject).toBe('Nous avons bien reçu votre candidature à Été créatif');
    expect(html).toContain('lang="fr"');
    expect(html).toContain('https://apply.brand.example/privacy');
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/admin/email-preview',
      headers: editor,
      payload: { ...body, emails: { confirmation: { subject: 'Hi {name}' } } },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('{firstName}');
    // A link a page may not name is no link the preview shows either.
    const script = await app.inject({
      method: 'POST',
      url: '/api/admin/email-preview',
      headers: editor,
      payload: { ...body, footerLinks: [{ text: 'Privacy', url: 'javascript:alert(1)' }] },
    });
    expect(script.statusCode).toBe(400);
    expect(script.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['footerLinks.0.url']);
  });
});
