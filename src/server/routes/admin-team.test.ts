import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { postgresExecDatabase, sqliteExecDatabase, type ExecDatabase } from '../../../tests/support/databases';
import { EDITOR, LOOPBACK, OWNER, VIEWER, deliveringApp } from '../../../tests/support/delivering-app';
import { startSmtpReceiver, type ReceivedEmail, type SmtpReceiver } from '../../../tests/support/smtp-server';
import { SESSION_COOKIE } from '../constants';
import { hashPassword } from '../inbox/password';
import { totpCode } from '../inbox/second-factor';
import type { Member, Team, TeamAudit, Security, SessionEntry, TotpSetup } from '../../shared/team';

/** A clock the test moves: links expire without waiting. */
function movableClock() {
  let now = Date.parse('2026-12-01T09:00:00Z');
  return { clock: () => now, advance: (ms: number) => void (now += ms) };
}

const PUBLIC_URL = 'https://apply.brand.example';
/** A team link in a message's text: an invitation's or a password reset's. */
const TEAM_LINK = /https:\/\/apply\.brand\.example\/admin\/[a-z-]+#[^\s>"]+/;

describe.each([
  ['SQLite', () => sqliteExecDatabase('team-')],
  ['PostgreSQL', postgresExecDatabase],
] as const)('the team on %s (docs/inbox.md, "The team")', (_store, makeDatabase) => {
  let database: ExecDatabase;
  let smtp: SmtpReceiver;
  let harness: Awaited<ReturnType<typeof deliveringApp>>;
  const time = movableClock();
  /** The editor, whose password the reset changes (a copy: the other store's run starts from the shared one). */
  const editor = { ...EDITOR };

  beforeAll(async () => {
    database = await makeDatabase();
    smtp = await startSmtpReceiver();
    harness = await deliveringApp(database.url, {
      clock: time.clock,
      webhooks: { deliver: true, allowNetworks: LOOPBACK, publicUrl: PUBLIC_URL, sender: { pollMs: 20 } },
      email: { smtpUrl: smtp.url, sender: { pollMs: 20, random: () => 0 } },
    });
  });

  afterAll(async () => {
    await harness?.close();
    await smtp?.close();
    await database?.drop();
  });

  const inject = (options: InjectOptions) => harness.app.inject(options);
  /** The headers of a signed-in session from a sign-in's (or an acceptance's) answer. */
  const sessionOf = (response: LightMyRequestResponse) => {
    const session = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)!;
    const xsrf = response.cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')!;
    return { cookie: `${SESSION_COOKIE}=${session.value}; XSRF-TOKEN=${xsrf.value}`, 'x-xsrf-token': xsrf.value };
  };
  /** `POST /api/admin{path}` with `payload`, as `headers`' session. */
  const post = (path: string, headers: Record<string, string> | undefined, payload?: object) =>
    inject({ method: 'POST', url: `/api/admin${path}`, ...(headers ? { headers } : {}), ...(payload ? { payload } : {}) });
  const signIn = (user: { email: string; password: string }) => inject({ method: 'POST', url: '/api/admin/session', payload: user });
  const team = async () => (await inject({ method: 'GET', url: '/api/admin/team', headers: harness.owner })).json<Team>();
  const memberOf = async (email: string) => (await team()).members.find((member) => member.email === email) as Member;
  /** Password resets stored, on a connection of the test's own. */
  const resetCount = async () => Number((await database.query<{ n: number | string }>('select count(*) as n from password_resets'))[0]!.n);
  const handed = new Set<ReceivedEmail>();
  /**
   * The link in the next message to `to` that carries one and was not handed out before, and its
   * token (the fragment): security notices and other messages in between are passed over.
   */
  const linkTo = async (to: string) => {
    const next = () => smtp.received.find((message) => !handed.has(message) && message.to.includes(to) && TEAM_LINK.test(message.mail.text ?? ''));
    await expect.poll(next, { timeout: 10_000 }).toBeDefined();
    const mail = next()!;
    handed.add(mail);
    const link = TEAM_LINK.exec(mail.mail.text ?? '')![0];
    return { link, token: decodeURIComponent(link.split('#')[1]!), mail };
  };
  /** The security notices to `to` so far (their subjects), once `count` have arrived. */
  const noticesTo = async (to: string, count: number) => {
    const notices = () => smtp.received.filter((message) => message.to.includes(to) && message.mail.subject?.startsWith('Your applications inbox account'));
    await expect.poll(() => notices().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
    return notices().map((message) => message.mail);
  };

  it('keeps the team to owners: editors and viewers are refused every team route (403)', async () => {
    for (const headers of [harness.editor, harness.viewer]) {
      expect((await inject({ method: 'GET', url: '/api/admin/team', headers })).statusCode).toBe(403);
      expect(
        (await inject({ method: 'POST', url: '/api/admin/team/invitations', headers, payload: { email: 'x@brand.example', role: 'viewer' } })).statusCode,
      ).toBe(403);
      expect((await inject({ method: 'GET', url: '/api/admin/team/audit', headers })).statusCode).toBe(403);
    }
    const listed = await team();
    expect(listed.members.map((member) => [member.email, member.role])).toEqual([
      [EDITOR.email, 'editor'],
      [OWNER.email, 'owner'],
      [VIEWER.email, 'viewer'],
    ]);
  });

  it('invites by e-mail: a single-use link valid 72 hours, a password checked against common ones, signed in at once', async () => {
    const invited = await post('/team/invitations', harness.owner, { email: 'Lena@Brand.example', role: 'editor' });
    expect(invited.statusCode, invited.body).toBe(201);
    // E-mail goes out: the link is in the message, not in the answer.
    expect(invited.json()).not.toHaveProperty('link');
    const { token, link, mail } = await linkTo('lena@brand.example');
    expect(link.startsWith(`${PUBLIC_URL}/admin/invitation#`)).toBe(true);
    expect(mail.mail.text).toContain(`${OWNER.email} invited you`);
    // The e-mail log keeps the message without its link.
    const logged = await inject({ method: 'GET', url: '/api/admin/emails', headers: harness.owner });
    expect(logged.body).not.toContain(token.split('.')[1]!);

    const offer = await inject({ method: 'POST', url: '/api/admin/invitations/offer', payload: { token } });
    expect(offer.json()).toMatchObject({ email: 'lena@brand.example', role: 'editor', invitedBy: OWNER.email });
    for (const [password, words] of [
      ['short one', 'at least 12'],
      ['password1234', 'common'],
      ['qwerty123456!', 'common'],
      ['aaaaaaaaaaaaaaa', 'repeated'],
      ['lena@brand.example', 'e-mail'],
    ] as const) {
      const refused = await inject({ method: 'POST', url: '/api/admin/invitations/accept', payload: { token, password } });
      expect(refused.statusCode, password).toBe(422);
      expect(refused.json().errors[0]).toMatchObject({ path: 'password' });
      expect(refused.json().detail).toContain(words);
    }
    const accepted = await inject({ method: 'POST', url: '/api/admin/invitations/accept', payload: { token, password: 'lena picks a long one' } });
    expect(accepted.statusCode, accepted.body).toBe(204);
    const lena = sessionOf(accepted);
    expect((await inject({ method: 'GET', url: '/api/admin/session', headers: lena })).json()).toEqual({
      email: 'lena@brand.example',
      role: 'editor',
      stage: 'full',
    });
    // Single use.
    const again = await inject({ method: 'POST', url: '/api/admin/invitations/accept', payload: { token, password: 'another long password' } });
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toContain('accepted or revoked');
    // A forged or altered token opens nothing.
    expect((await inject({ method: 'POST', url: '/api/admin/invitations/offer', payload: { token: `${token.split('.')[0]}.forged` } })).statusCode).toBe(404);
    expect((await team()).invitations).toEqual([]);
  });

  it('refuses an expired link, and a resend renews it (the old link dead); a revoked one opens nothing', async () => {
    await post('/team/invitations', harness.owner, { email: 'max@brand.example', role: 'viewer' });
    const first = await linkTo('max@brand.example');
    // An address invited twice: said, not sent twice.
    const twice = await post('/team/invitations', harness.owner, { email: 'max@brand.example', role: 'viewer' });
    expect(twice.statusCode).toBe(409);
    const member = await post('/team/invitations', harness.owner, { email: EDITOR.email, role: 'viewer' });
    expect(member.statusCode).toBe(409);
    time.advance(72 * 3_600_000 + 1000);
    // Sessions end after 8 idle hours: everyone signs in again.
    for (const [key, user] of [
      ['owner', OWNER],
      ['editor', editor],
      ['viewer', VIEWER],
    ] as const)
      harness[key] = sessionOf(await signIn(user));
    const expired = await inject({ method: 'POST', url: '/api/admin/invitations/accept', payload: { token: first.token, password: 'max picks a long one' } });
    expect(expired.statusCode).toBe(410);
    const { id } = (await team()).invitations.find((invitation) => invitation.email === 'max@brand.example')!;
    const resent = await inject({ method: 'POST', url: `/api/admin/team/invitations/${id}/resend`, headers: harness.owner });
    expect(resent.statusCode, resent.body).toBe(200);
    const second = await linkTo('max@brand.example');
    expect(second.token).not.toBe(first.token);
    time.advance(60_000);
    expect((await inject({ method: 'POST', url: '/api/admin/invitations/offer', payload: { token: first.token } })).statusCode).toBe(404);
    expect((await inject({ method: 'POST', url: '/api/admin/invitations/offer', payload: { token: second.token } })).statusCode).toBe(200);
    expect((await inject({ method: 'DELETE', url: `/api/admin/team/invitations/${id}`, headers: harness.owner })).statusCode).toBe(204);
    expect((await inject({ method: 'POST', url: '/api/admin/invitations/offer', payload: { token: second.token } })).statusCode).toBe(404);
  });

  it('changes roles from the next request, removes members with their sessions at once, and never leaves the team without an owner', async () => {
    const viewerSession = sessionOf(await signIn(VIEWER));
    const viewer = await memberOf(VIEWER.email);
    const change = (id: string, role: string) => inject({ method: 'PATCH', url: `/api/admin/team/members/${id}`, headers: harness.owner, payload: { role } });
    expect((await change(viewer.id, 'editor')).statusCode).toBe(204);
    const tags = await post('/tags', viewerSession, { name: 'From a promoted viewer' });
    expect(tags.statusCode, tags.body).toBe(201);
    expect((await change(viewer.id, 'viewer')).statusCode).toBe(204);
    expect((await post('/tags', viewerSession, { name: 'Demoted' })).statusCode).toBe(403);

    const owner = await memberOf(OWNER.email);
    const demoted = await change(owner.id, 'editor');
    expect(demoted.statusCode).toBe(409);
    expect(demoted.json().detail).toContain('at least one owner');
    expect((await inject({ method: 'DELETE', url: `/api/admin/team/members/${owner.id}`, headers: harness.owner })).statusCode).toBe(409);

    const removed = await inject({ method: 'DELETE', url: `/api/admin/team/members/${viewer.id}`, headers: harness.owner });
    expect(removed.statusCode).toBe(204);
    expect((await inject({ method: 'GET', url: '/api/admin/applications', headers: viewerSession })).statusCode).toBe(401);
    expect((await signIn(VIEWER)).statusCode).toBe(401);
  });

  it('lists a member’s sessions (device, address, last used); they end one, an owner ends all of a member’s', async () => {
    const phone = await inject({
      method: 'POST',
      url: '/api/admin/session',
      payload: editor,
      headers: {
        'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
      },
    });
    const phoneSession = sessionOf(phone);
    const sessions = (await inject({ method: 'GET', url: '/api/admin/me/sessions', headers: harness.editor })).json<SessionEntry[]>();
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    const iphone = sessions.find((session) => session.device.includes('iOS'))!;
    expect(iphone).toMatchObject({ device: 'Safari 18 on iOS', address: '127.0.0.1', current: false });
    expect(JSON.stringify(sessions)).not.toContain(phone.cookies.find((cookie) => cookie.name === SESSION_COOKIE)!.value);
    expect((await inject({ method: 'DELETE', url: `/api/admin/me/sessions/${iphone.id}`, headers: harness.editor })).statusCode).toBe(204);
    expect((await inject({ method: 'GET', url: '/api/admin/session', headers: phoneSession })).statusCode).toBe(401);

    const other = sessionOf(await signIn(editor));
    const member = await memberOf(EDITOR.email);
    const ended = await inject({ method: 'DELETE', url: `/api/admin/team/members/${member.id}/sessions`, headers: harness.owner });
    expect(ended.json<{ ended: number }>().ended).toBeGreaterThanOrEqual(2);
    expect((await inject({ method: 'GET', url: '/api/admin/session', headers: other })).statusCode).toBe(401);
    harness.editor = sessionOf(await signIn(editor));
  });

  it('resets a password by e-mail: the same answer for any address, a single-use link of 30 minutes, every session ended', async () => {
    const known = await inject({ method: 'POST', url: '/api/admin/password-reset', payload: { email: ` ${EDITOR.email.toUpperCase()} ` } });
    const unknown = await inject({ method: 'POST', url: '/api/admin/password-reset', payload: { email: 'nobody@brand.example' } });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    const { token } = await linkTo(EDITOR.email);
    // The link is read first: the account it works for, and until when.
    const offer = await inject({ method: 'POST', url: '/api/admin/password-reset/offer', payload: { token } });
    expect(offer.json()).toEqual({ email: EDITOR.email, expiresAt: new Date(time.clock() + 30 * 60_000).toISOString() });
    const open = sessionOf(await signIn(editor));
    const weak = await inject({ method: 'POST', url: '/api/admin/password-reset/complete', payload: { token, password: 'iloveyou1234' } });
    expect(weak.statusCode).toBe(422);
    const done = await inject({ method: 'POST', url: '/api/admin/password-reset/complete', payload: { token, password: 'a new editor password' } });
    expect(done.statusCode, done.body).toBe(204);
    expect((await inject({ method: 'GET', url: '/api/admin/session', headers: open })).statusCode).toBe(401);
    expect((await signIn(editor)).statusCode).toBe(401);
    expect((await signIn({ email: editor.email, password: 'a new editor password' })).statusCode).toBe(204);
    // The member is told, with when and from where (the change may not have been theirs).
    const [notice] = await noticesTo(EDITOR.email, 1);
    expect(notice!.subject).toBe('Your applications inbox account: password reset');
    expect(notice!.text).toContain('From: 127.0.0.1');
    expect(notice!.text).toContain(`reset your password <${PUBLIC_URL}/admin/>`);
    expect((await inject({ method: 'POST', url: '/api/admin/password-reset/complete', payload: { token, password: 'yet another password' } })).statusCode).toBe(
      404,
    );
    const used = await inject({ method: 'POST', url: '/api/admin/password-reset/offer', payload: { token } });
    expect(used.statusCode).toBe(404);
    expect(used.json().detail).toContain('used');
    // A link of 30 minutes.
    await inject({ method: 'POST', url: '/api/admin/password-reset', payload: { email: EDITOR.email } });
    const late = await linkTo(EDITOR.email);
    time.advance(30 * 60_000 + 1000);
    expect(
      (await inject({ method: 'POST', url: '/api/admin/password-reset/complete', payload: { token: late.token, password: 'too late password' } })).statusCode,
    ).toBe(410);
    // The command line's reset (recovery) ends the sessions and the reset links alike.
    await inject({ method: 'POST', url: '/api/admin/password-reset', payload: { email: EDITOR.email } });
    const waiting = await linkTo(EDITOR.email);
    const COMMAND_LINE = { email: 'command line', address: 'command line' };
    const signedIn = sessionOf(await signIn({ email: editor.email, password: 'a new editor password' }));
    expect(await harness.store.team.resetPassword(EDITOR.email.toUpperCase(), await hashPassword('a command line password'), COMMAND_LINE)).toBe(true);
    expect(await harness.store.team.resetPassword('nobody@brand.example', await hashPassword('a command line password'), COMMAND_LINE)).toBe(false);
    expect((await inject({ method: 'GET', url: '/api/admin/session', headers: signedIn })).statusCode).toBe(401);
    expect(
      (await inject({ method: 'POST', url: '/api/admin/password-reset/complete', payload: { token: waiting.token, password: 'a link password here' } }))
        .statusCode,
    ).toBe(404);
    expect((await noticesTo(EDITOR.email, 2))[1]!.text).toContain('From: command line');
    editor.password = 'a command line password';
    harness.editor = sessionOf(await signIn(editor));
  });

  it('answers a reset for a known and an unknown address before anything is looked up, so alike in time', async () => {
    const reset = (email: string) => inject({ method: 'POST', url: '/api/admin/password-reset', payload: { email } });
    if (database.url.startsWith('sqlite:')) {
      // SQLite's store runs its statements on this thread: a lock held by another connection would
      // hold the thread, the answer with it. Timed instead: the fastest of fifteen answers each
      // (another process's load only lengthens an answer, so the fastest show what each request
      // itself waits for).
      const timed = async (email: string) => {
        const start = performance.now();
        await reset(email);
        return performance.now() - start;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      for (let round = 0; round < 15; round++) {
        known.push(await timed(OWNER.email));
        unknown.push(await timed(`nobody.${round}@brand.example`));
      }
      expect(Math.abs(Math.min(...known) - Math.min(...unknown))).toBeLessThan(5);
      return;
    }
    // The account table locked by a connection of the test's own: a reset that looked the address
    // up before answering would wait for it.
    const resetsBefore = await resetCount();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('begin');
      await client.query('lock table admin_users in access exclusive mode');
      const answers = await Promise.all([reset(OWNER.email), reset('nobody.held@brand.example')]);
      const detail = (answer: LightMyRequestResponse) => answer.json<{ detail: string }>().detail;
      expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202]);
      expect(detail(answers[0]!)).toBe(detail(answers[1]!));
      // Both answered while the table is locked (it is released below, after them): neither waited
      // on the store, and nothing is planned yet.
      expect(await resetCount()).toBe(resetsBefore);
    } finally {
      await client.query('commit').catch(() => undefined);
      await client.end();
    }
    // The known address's reset is planned once the table is free again.
    await expect.poll(resetCount).toBe(resetsBefore + 1);
  });

  it('enrols an authenticator app (QR code, ten recovery codes once); sign-in then asks for a code, taken once, guesses limited', async () => {
    // From a signed-in session, a new factor asks for the password again.
    expect((await inject({ method: 'POST', url: '/api/admin/me/totp', headers: harness.editor })).statusCode).toBe(403);
    const setup = (await post('/me/totp', harness.editor, { password: editor.password })).json<TotpSetup>();
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.qrSvg).toContain('<svg');
    const wrong = await post('/me/totp/confirm', harness.editor, { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    const confirmed = await post('/me/totp/confirm', harness.editor, { code: await totpCode(setup.secret, time.clock()) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect((await inject({ method: 'GET', url: '/api/admin/me/security', headers: harness.editor })).json<Security>()).toMatchObject({
      totp: true,
      recoveryCodesLeft: 10,
    });

    time.advance(30_000);
    const first = await signIn(editor);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ secondFactor: { totp: true, passkey: false } });
    const half = sessionOf(first);
    // Half signed in: nothing but the second step.
    expect((await inject({ method: 'GET', url: '/api/admin/applications', headers: half })).statusCode).toBe(403);
    expect((await inject({ method: 'GET', url: '/api/admin/session', headers: half })).json()).toMatchObject({ stage: 'second-factor' });
    const code = await totpCode(setup.secret, time.clock());
    const passed = await post('/session/second-factor', half, { code });
    expect(passed.statusCode, passed.body).toBe(204);
    const full = sessionOf(passed);
    expect((await inject({ method: 'GET', url: '/api/admin/applications', headers: full })).statusCode).toBe(200);
    // The half session's token is worth nothing now.
    expect((await inject({ method: 'GET', url: '/api/admin/session', headers: half })).statusCode).toBe(401);

    // The same code, replayed on another sign-in within its 30 seconds: refused.
    const replay = sessionOf(await signIn(editor));
    const replayed = await post('/session/second-factor', replay, { code });
    expect(replayed.statusCode).toBe(401);
    // A recovery code works once.
    const recovered = await post('/session/second-factor', replay, { code: recoveryCodes[0]!.toUpperCase() });
    expect(recovered.statusCode).toBe(204);
    const reuse = sessionOf(await signIn(editor));
    expect((await post('/session/second-factor', reuse, { code: recoveryCodes[0]! })).statusCode).toBe(401);
    // Guessing is limited as passwords are: five wrong codes in 15 minutes, then 429.
    let last = 0;
    for (let guess = 0; guess < 6; guess++) {
      last = (await post('/session/second-factor', reuse, { code: '123456' })).statusCode;
    }
    expect(last).toBe(429);
    time.advance(15 * 60_000);
    harness.editor = sessionOf(
      await inject({
        method: 'POST',
        url: '/api/admin/session/second-factor',
        headers: sessionOf(await signIn(editor)),
        payload: { code: await totpCode(setup.secret, time.clock()) },
      }),
    );
    // A signed-in session has no second step to take: its guesses and passkey challenges are not its to spend.
    expect((await post('/session/second-factor', harness.editor, { code: '123456' })).statusCode).toBe(403);
    expect((await post('/session/passkey/options', harness.editor)).statusCode).toBe(403);
    // Removing it asks for the password again.
    expect((await post('/me/totp/remove', harness.editor, { password: 'wrong' })).statusCode).toBe(403);
    expect((await post('/me/totp/remove', harness.editor, { password: editor.password })).statusCode).toBe(204);
    expect((await signIn(editor)).statusCode).toBe(204);
    // Each change was told to the member (after the two resets' notices).
    const notices = (await noticesTo(EDITOR.email, 5)).slice(2);
    expect(notices.map((notice) => notice.subject).sort()).toEqual([
      'Your applications inbox account: recovery code used',
      'Your applications inbox account: second factor added',
      'Your applications inbox account: second factor removed',
    ]);
    expect(notices.find((notice) => notice.subject!.endsWith('added'))!.text).toContain('What: Second factor added (authenticator app)');
  });

  it('an owner requires a second factor: a member without one signs in only to enrol', async () => {
    const put = await inject({ method: 'PUT', url: '/api/admin/team/settings', headers: harness.owner, payload: { requireSecondFactor: true } });
    expect(put.json()).toEqual({ requireSecondFactor: true });
    const signedIn = await signIn(editor);
    expect(signedIn.statusCode).toBe(204);
    const enrolling = sessionOf(signedIn);
    expect((await inject({ method: 'GET', url: '/api/admin/session', headers: enrolling })).json()).toMatchObject({ stage: 'enrol' });
    const refused = await inject({ method: 'GET', url: '/api/admin/applications', headers: enrolling });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toContain('requires a second factor');
    expect((await inject({ method: 'GET', url: '/api/admin/me/security', headers: enrolling })).json()).toMatchObject({ required: true, totp: false });
    const setup = (await inject({ method: 'POST', url: '/api/admin/me/totp', headers: enrolling })).json<TotpSetup>();
    const confirmed = await post('/me/totp/confirm', enrolling, { code: await totpCode(setup.secret, time.clock()) });
    expect(confirmed.statusCode).toBe(200);
    const full = sessionOf(confirmed);
    expect((await inject({ method: 'GET', url: '/api/admin/applications', headers: full })).statusCode).toBe(200);
    // From the full session, a passkey asks for the password again too.
    expect((await post('/me/passkeys/options', full, { password: 'not the password' })).statusCode).toBe(403);
    expect((await post('/me/passkeys/options', full, { password: editor.password })).statusCode).toBe(200);
    // The only factor stays while the team requires one.
    const last = await post('/me/totp/remove', full, { password: editor.password });
    expect(last.statusCode).toBe(409);
    expect(last.json().detail).toContain('add another');
    await inject({ method: 'PUT', url: '/api/admin/team/settings', headers: harness.owner, payload: { requireSecondFactor: false } });
    expect((await post('/me/totp/remove', full, { password: editor.password })).statusCode).toBe(204);
  });

  it('changes a password from Your account: the one now first, the rule held, every other session ended', async () => {
    const other = sessionOf(await signIn(editor));
    const wrong = await post('/me/password', harness.editor, { current: 'not it', password: 'another long passphrase' });
    expect(wrong.statusCode).toBe(403);
    const weak = await post('/me/password', harness.editor, { current: editor.password, password: 'qwertyuiop12' });
    expect(weak.statusCode).toBe(422);
    expect((await post('/me/password', harness.editor, { current: editor.password, password: editor.password })).statusCode).toBe(422);
    const changed = await post('/me/password', harness.editor, { current: editor.password, password: 'another long passphrase' });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await inject({ method: 'GET', url: '/api/admin/session', headers: other })).statusCode).toBe(401);
    expect((await inject({ method: 'GET', url: '/api/admin/session', headers: harness.editor })).statusCode).toBe(200);
    expect((await noticesTo(EDITOR.email, 8)).at(-1)!.subject).toBe('Your applications inbox account: password changed');
    // The e-mail log lists messages about accounts to owners and to the member each went to only.
    const log = async (headers: Record<string, string>, kind: string) =>
      (await inject({ method: 'GET', url: `/api/admin/emails?kind=${kind}`, headers })).json<{ items: { id: string; to: string }[] }>().items;
    // A notice still waiting to be sent has no recipient yet (it is made as it is sent): wait until every one listed is made.
    await expect.poll(async () => (await log(harness.editor, 'security_notice')).every((entry) => entry.to !== '')).toBe(true);
    const own = await log(harness.editor, 'security_notice');
    expect(own.length).toBeGreaterThanOrEqual(8);
    expect(new Set(own.map((entry) => entry.to))).toEqual(new Set([EDITOR.email]));
    expect((await log(harness.owner, 'security_notice')).length).toBeGreaterThanOrEqual(own.length);
    const reader = { email: 'log.reader@brand.example', password: 'a log reader password' };
    await harness.store.users.createUser(reader.email, await hashPassword(reader.password), 'viewer');
    const viewer = sessionOf(await signIn(reader));
    for (const kind of ['security_notice', 'password_reset', 'invitation']) expect(await log(viewer, kind), kind).toEqual([]);
    expect((await inject({ method: 'GET', url: `/api/admin/emails/${own[0]!.id}`, headers: viewer })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: `/api/admin/emails/${own[0]!.id}/html`, headers: viewer })).statusCode).toBe(404);
    editor.password = 'another long passphrase';
    // Guesses at the password now are limited as sign-ins are.
    const guesses = [];
    for (let guess = 0; guess < 6; guess++)
      guesses.push((await post('/me/password', harness.editor, { current: `guess ${guess}`, password: 'a third long passphrase' })).statusCode);
    expect(guesses.at(-1)).toBe(429);
    // Every route that asks for the password again counts against the same guesses.
    expect((await post('/me/recovery-codes', harness.editor, { password: 'one more guess' })).statusCode).toBe(429);
    expect((await post('/me/passkeys/options', harness.editor, { password: editor.password })).statusCode).toBe(429);
    // …and the sign-in's: one limit of wrong passwords however the password is given.
    expect((await signIn(editor)).statusCode).toBe(429);
    time.advance(15 * 60_000);
    harness.editor = sessionOf(await signIn(editor));
  });

  it('never leaves the team without an owner, even when two owners demote each other at once', async () => {
    const second = { email: 'second.owner@brand.example', password: 'second owner password' };
    await post('/team/invitations', harness.owner, { email: second.email, role: 'owner' });
    const { token } = await linkTo(second.email);
    const joined = sessionOf(await inject({ method: 'POST', url: '/api/admin/invitations/accept', payload: { token, password: second.password } }));
    const first = await memberOf(OWNER.email);
    const other = await memberOf(second.email);
    const answers = await Promise.all([
      inject({ method: 'PATCH', url: `/api/admin/team/members/${other.id}`, headers: harness.owner, payload: { role: 'viewer' } }),
      inject({ method: 'PATCH', url: `/api/admin/team/members/${first.id}`, headers: joined, payload: { role: 'viewer' } }),
    ]);
    // One is made; the other is refused: 409 (it would leave no owner), or 403 when the first made its sender a viewer already.
    expect(answers.filter((answer) => answer.statusCode === 204)).toHaveLength(1);
    expect(answers.map((answer) => answer.statusCode).every((status) => [204, 403, 409].includes(status))).toBe(true);
    const owners = (await inject({ method: 'GET', url: '/api/admin/team', headers: answers[0]!.statusCode === 204 ? harness.owner : joined }))
      .json<Team>()
      .members.filter((member) => member.role === 'owner');
    expect(owners).toHaveLength(1);
    // The team as before: the first owner, and the second removed.
    if (owners[0]!.email !== OWNER.email) {
      await inject({ method: 'PATCH', url: `/api/admin/team/members/${first.id}`, headers: joined, payload: { role: 'owner' } });
    }
    expect((await inject({ method: 'DELETE', url: `/api/admin/team/members/${other.id}`, headers: harness.owner })).statusCode).toBe(204);
  });

  it('sends one address at most three invitations an hour, resent or sent again after a revocation', async () => {
    const address = 'flood.target@elsewhere.example';
    expect((await post('/team/invitations', harness.owner, { email: address, role: 'viewer' })).statusCode).toBe(201);
    const { id } = (await team()).invitations.find((invitation) => invitation.email === address)!;
    const resends = [];
    for (let index = 0; index < 3; index++) resends.push((await post(`/team/invitations/${id}/resend`, harness.owner)).statusCode);
    expect(resends).toEqual([200, 200, 429]);
    const refused = await post(`/team/invitations/${id}/resend`, harness.owner);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await inject({ method: 'DELETE', url: `/api/admin/team/invitations/${id}`, headers: harness.owner })).statusCode).toBe(204);
    expect((await post('/team/invitations', harness.owner, { email: address, role: 'viewer' })).statusCode).toBe(429);
    time.advance(3_600_000);
    harness.owner = sessionOf(await signIn(OWNER));
    expect((await post('/team/invitations', harness.owner, { email: address, role: 'viewer' })).statusCode).toBe(201);
  });

  it('sends at most three reset e-mails an hour to one account, even asked for at once', async () => {
    // The store's own guarantee, asked twelve times at once (the route answers first and asks it after).
    time.advance(3_600_000);
    const made = (to: string) => ({ to, content: { lang: 'en', subject: 'reset', paragraphs: [], footer: [] }, headers: {} });
    const planned = await Promise.all(
      Array.from({ length: 12 }, () => harness.store.team.requestReset(VIEWER.email.replace('viewer', 'second.viewer'), '127.0.0.1', made)),
    );
    expect(planned.filter(Boolean)).toHaveLength(0);
    const owner = await Promise.all(Array.from({ length: 12 }, () => harness.store.team.requestReset(OWNER.email, '127.0.0.1', made)));
    expect(owner.filter(Boolean)).toHaveLength(3);
  });

  it('audits every change — who, when, from where — filtered by person and kind', async () => {
    const all = (await inject({ method: 'GET', url: '/api/admin/team/audit', headers: harness.owner })).json<TeamAudit>();
    const kinds = new Set(all.events.map((event) => event.kind));
    for (const kind of [
      'invitation-sent',
      'invitation-accepted',
      'invitation-resent',
      'invitation-revoked',
      'role-changed',
      'member-removed',
      'session-ended',
      'sessions-ended',
      'password-reset-requested',
      'password-reset',
      'second-factor-added',
      'second-factor-removed',
      'recovery-code-used',
      'second-factor-required',
    ])
      expect(kinds, kind).toContain(kind);
    expect(all.events[0]!.at >= all.events.at(-1)!.at).toBe(true);
    const roleChanges = all.events.filter((event) => event.kind === 'role-changed' && event.subject === VIEWER.email);
    // Newest first, in the order made even within one millisecond.
    expect(roleChanges.map((event) => event.detail)).toEqual(['editor → viewer', 'viewer → editor']);
    expect(roleChanges[1]).toMatchObject({ actor: OWNER.email, subject: VIEWER.email, address: '127.0.0.1' });
    const lena = (await inject({ method: 'GET', url: '/api/admin/team/audit?person=LENA', headers: harness.owner })).json<TeamAudit>();
    expect(lena.events.map((event) => event.kind).sort()).toEqual(['invitation-accepted', 'invitation-sent']);
    const removals = (await inject({ method: 'GET', url: '/api/admin/team/audit?kind=member-removed', headers: harness.owner })).json<TeamAudit>();
    expect(removals.events.map((event) => event.subject)).toContain(VIEWER.email);
    expect(removals.events.every((event) => event.kind === 'member-removed')).toBe(true);
  });
});
