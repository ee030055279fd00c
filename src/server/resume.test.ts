import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawDefaultConfig } from '../../tests/factories/application';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../tests/support/databases';
import { EDITOR, LOOPBACK, deliveringApp } from '../../tests/support/delivering-app';
import { startSmtpReceiver, type SmtpReceiver } from '../../tests/support/smtp-server';
import { inboxSession } from '../../tests/support/test-app';
import { xsrfPair } from '../../tests/support/xsrf';
import { parseWizardConfig } from '../shared/config';
import type { EmailLogEntry } from '../shared/emails';
import type { PersonExport } from '../shared/person';
import { MAX_RESUME_LINKS_PER_MAILBOX, RESUME_HASH } from '../shared/resume';
import { RESUME_LINK_PLACEHOLDER } from './email/signed-links';

// Resume on another device (requirements §22), through the HTTP API, a real SMTP server on loopback
// and an injected clock: a draft kept only when asked, sealed at rest, e-mailed as a link that
// reads it back on any device for 7 days; then erased, with what the e-mail log kept of it.

const config = parseWizardConfig(rawDefaultConfig()).config!;
const values = { personalInfo: { firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@example.com' }, survey: { pets: 'A cat named Zebedee' } };

describe.each([
  ['SQLite', () => sqliteExecDatabase('resume-')],
  ['PostgreSQL', postgresExecDatabase],
])('a draft continued on another device, on %s', (_name, createDatabase) => {
  let database: ExecDatabase;
  let smtp: SmtpReceiver;
  let now = Date.parse('2026-11-30T09:00:00.000Z');
  let harness: Awaited<ReturnType<typeof deliveringApp>>;
  let app: FastifyInstance;

  beforeAll(async () => {
    [database, smtp] = await Promise.all([createDatabase(), startSmtpReceiver()]);
    harness = await deliveringApp(database.url, {
      config,
      clock: () => now,
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

  const keep = (body: unknown, pageId = 'creators', headers: Record<string, string> = xsrfPair().headers) =>
    app.inject({ method: 'POST', url: `/api/drafts/${pageId}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const read = (token: string) =>
    app.inject({ method: 'POST', url: '/api/draft-links/open', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ token }) });
  const erase = (token: string) =>
    app.inject({ method: 'POST', url: '/api/draft-links/erase', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ token }) });

  /** The link the message to `address` carried: its token, after the page's address. */
  async function linkFor(address: string): Promise<{ url: URL; token: string }> {
    await expect.poll(() => smtp.received.some((message) => message.to.includes(address)), { timeout: 10_000 }).toBe(true);
    const message = smtp.received.find((received) => received.to.includes(address))!;
    const link = /https?:\/\/[^\s<>"]+#resume=[^\s<>"]+/.exec(message.mail.text ?? '')?.[0];
    expect(link, message.mail.text).toBeDefined();
    const url = new URL(link!);
    return { url, token: url.hash.slice(RESUME_HASH.length) };
  }

  it('keeps a draft only when asked, e-mails its link, and reads it back through the link on any device, sealed at rest', async () => {
    const address = `ada.${randomUUID().slice(0, 8)}@example.com`;
    const kept = await keep({ email: address, step: 2, values, screen: { age: '2000-01' } });
    expect(kept.statusCode, kept.body).toBe(202);
    expect(kept.json<{ expiresAt: string }>().expiresAt).toBe('2026-12-07T09:00:00.000Z');
    const { url, token } = await linkFor(address);
    // The page at the server's address, the secret in the fragment (no log or referrer sees it).
    expect(url.pathname + url.search).toBe('/?page=creators');
    const message = smtp.received.find((received) => received.to.includes(address))!;
    expect(message.mail.subject).toBe(`Continue your application to ${config.title}`);
    expect(message.mail.text).toContain('December 7, 2026');
    const answer = await read(token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.json()).toEqual({ pageId: 'creators', step: 2, values, screen: { age: '2000-01' }, expiresAt: '2026-12-07T09:00:00.000Z' });
    // At rest: no answer, nor the address's draft, readable in the table.
    const rows = await database.query<{ sealed: string; email: string }>('select sealed, email from resume_drafts');
    expect(rows.some((row) => row.email === address)).toBe(true);
    expect(rows.map((row) => Buffer.from(row.sealed, 'base64url').toString('latin1')).join('')).not.toMatch(/Zebedee|Lovelace/);
    // The e-mail log keeps the message without its link.
    const editor = await inboxSession(app, EDITOR);
    const log = await app.inject({ method: 'GET', url: '/api/admin/emails', headers: { cookie: editor.cookie } });
    const entry = log.json<{ items: EmailLogEntry[] }>().items.find((item) => item.to === address);
    expect(entry).toMatchObject({ kind: 'resume_link', pageId: 'creators', state: 'sent' });
    const shown = await app.inject({ method: 'GET', url: `/api/admin/emails/${entry!.id}`, headers: { cookie: editor.cookie } });
    expect(shown.body).toContain(RESUME_LINK_PLACEHOLDER);
    expect(shown.body).not.toContain(token);
  });

  it('refuses a link changed or made up (404), and one past its 7 days (410), erasing the draft and its message’s content', async () => {
    const address = `bea.${randomUUID().slice(0, 8)}@example.com`;
    expect((await keep({ email: address, step: 1, values })).statusCode).toBe(202);
    const { token } = await linkFor(address);
    const [id, mac] = token.split('.') as [string, string];
    expect((await read(`${id}.${mac.replace(/^./, (first) => (first === 'A' ? 'B' : 'A'))}`)).statusCode).toBe(404);
    expect((await read(`${randomUUID()}.${mac}`)).statusCode).toBe(404);
    expect((await read('nothing')).statusCode).toBe(404);
    now += 7 * 24 * 60 * 60 * 1000 - 1;
    expect((await read(token)).statusCode).toBe(200);
    now += 1;
    expect((await read(token)).statusCode).toBe(410);
    // The sweep erases it, and scrubs its message in the log (kind, state and times kept).
    await expect
      .poll(async () => (await database.query<{ id: string }>(`select id from resume_drafts where id = '${id}'`)).length, { timeout: 10_000 })
      .toBe(0);
    const messages = await database.query<{ recipient: string; content: string }>(
      `select recipient, content from email_messages where dedupe_key = 'resume_link:${id}'`,
    );
    expect(messages).toEqual([{ recipient: '', content: '' }]);
  });

  it('refuses what is not a draft to keep: without the anti-forgery pair 403, an unknown page 404, an address or step that is not one 400, a fourth link to one mailbox in a day 429', async () => {
    const address = `cy.${randomUUID().slice(0, 8)}@example.com`;
    expect((await keep({ email: address, step: 1, values }, 'creators', {})).statusCode).toBe(403);
    expect((await keep({ email: address, step: 1, values }, 'nowhere')).statusCode).toBe(404);
    const badEmail = await keep({ email: 'not an address', step: 1, values });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['email']);
    // Past the step that sends (the thank-you step: a link would show "thank you" for nothing sent).
    const badStep = await keep({ email: address, step: config.steps.length - 1, values });
    expect(badStep.statusCode).toBe(400);
    expect(badStep.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['step']);
    // Nested past what a page's answers nest: refused, never a 500 (a deep enough body overflowed the stack).
    const tooDeep = await app.inject({
      method: 'POST',
      url: '/api/drafts/creators',
      headers: { ...xsrfPair().headers, 'content-type': 'application/json' },
      payload: `{"email":"${address}","step":1,"values":{"a":${'['.repeat(5_000)}"x"${']'.repeat(5_000)}}}`,
    });
    expect(tooDeep.statusCode, tooDeep.body).toBe(400);
    expect(tooDeep.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['values']);
    expect((await keep({ email: address, step: 1, values: 'text' })).statusCode).toBe(400);
    expect((await keep({ email: address, step: 1, values: { big: 'x'.repeat(70_000) } })).statusCode).toBe(413);
    // One mailbox, however it is written, is sent a few links a day.
    const [local, domain] = address.split('@') as [string, string];
    for (let index = 0; index < MAX_RESUME_LINKS_PER_MAILBOX; index++)
      expect((await keep({ email: index === 0 ? address : `${local.toUpperCase()}+${index}@${domain}`, step: 1, values })).statusCode).toBe(202);
    const tooMany = await keep({ email: address, step: 1, values });
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toEqual(['email']);
  });

  it('erases a draft through its link (the page that opened it, once its application is stored), with its message’s content', async () => {
    const address = `eve.${randomUUID().slice(0, 8)}@example.com`;
    expect((await keep({ email: address, step: 1, values })).statusCode).toBe(202);
    const { token } = await linkFor(address);
    const [id, mac] = token.split('.') as [string, string];
    expect((await erase(`${randomUUID()}.${mac}`)).statusCode).toBe(404);
    expect((await erase(token)).statusCode).toBe(204);
    expect((await read(token)).statusCode).toBe(410);
    expect(await database.query(`select id from resume_drafts where id = '${id}'`)).toEqual([]);
  });

  it('lets one proof of work pay for one link, when many ask with it at once and after its draft is erased; a refusal at the cap spends it too', async () => {
    const key = (index: number) => `a7c9e3f0-5b1d-4e2a-9c3b-1d2e3f40506${index}`;
    const draft = (index: number, email = `proof${index}@example.com`) => ({
      id: `0192d3c0-0000-7000-8000-0000000000${String(index).padStart(2, '0')}`,
      pageId: 'creators',
      email,
      sealed: 'sealed',
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 60_000).toISOString(),
    });
    const made = { to: 'proof@example.com', content: { lang: 'en', subject: 'Your link', paragraphs: [], footer: [] }, headers: {} };
    const drafts = harness.store.resumeDrafts;
    const outcomes = await Promise.all([1, 2, 3, 4].map((index) => drafts.keep(draft(index), made, key(0))));
    expect(outcomes.sort()).toEqual(['kept', 'spent', 'spent', 'spent']);
    // Its draft erased (through its link), the proof is still spent.
    const kept = (await Promise.all([1, 2, 3, 4].map((index) => drafts.get(draft(index).id)))).find(Boolean)!;
    expect(await drafts.erase(kept.id)).toBe(true);
    expect(await drafts.keep(draft(5), made, key(0))).toBe('spent');
    // Another page's link may come from a key of the same value: the proof was for one page.
    expect(await drafts.keep({ ...draft(6), pageId: 'another' }, made, key(0))).toBe('kept');
    // A mailbox's three links count after their drafts are erased; the fourth request spends its proof.
    for (const index of [1, 2, 3]) {
      expect(await drafts.keep(draft(10 + index, 'capped@example.com'), made, key(index))).toBe('kept');
      expect(await drafts.erase(draft(10 + index).id)).toBe(true);
    }
    expect(await drafts.keep(draft(14, 'capped+again@example.com'), made, key(4))).toBe('too-many');
    expect(await drafts.keep(draft(15, 'someone.new@example.com'), made, key(4))).toBe('spent');
    // The hourly sweep forgets them after 24 hours.
    now += 24 * 60 * 60 * 1000 + 1;
    expect(await drafts.forgetSends(new Date(now).toISOString())).toBeGreaterThan(0);
    expect(await drafts.keep({ ...draft(16, 'capped@example.com'), createdAt: new Date(now).toISOString() }, made, key(4))).toBe('kept');
  });

  it('keeps one mailbox to its links when many ask at once', async () => {
    const address = `fay.${randomUUID().slice(0, 8)}@example.com`;
    const [local, domain] = address.split('@') as [string, string];
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => keep({ email: `${local}+${index}@${domain}`, step: 1, values })));
    expect(answers.filter((answer) => answer.statusCode === 202)).toHaveLength(MAX_RESUME_LINKS_PER_MAILBOX);
  });

  it('lists a person’s drafts in their export and erases them with the rest of their data', async () => {
    const address = `dee.${randomUUID().slice(0, 8)}@example.com`;
    expect((await keep({ email: address, step: 1, values })).statusCode).toBe(202);
    const { token } = await linkFor(address);
    const editor = await inboxSession(app, EDITOR);
    const exported = await app.inject({
      method: 'GET',
      url: `/api/admin/people/export?email=${encodeURIComponent(address.toUpperCase())}`,
      headers: { cookie: editor.cookie },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json<PersonExport>().resumeDrafts).toEqual([expect.objectContaining({ pageId: 'creators', id: token.split('.')[0] })]);
    const erased = await app.inject({
      method: 'POST',
      url: '/api/admin/people/erase',
      headers: { cookie: editor.cookie, 'x-xsrf-token': editor.xsrf, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: address }),
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect((await read(token)).statusCode).toBe(410);
  });
});
