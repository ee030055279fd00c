import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/server/inbox/second-factor';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-server';
import { INBOX_USER, INBOX_VIEWER, WCAG_AND_BEST_PRACTICES, announcement, createInboxUser, openInbox, signIn, signedIn, violations } from './inbox-support';
import { expectConsoleError } from '../support/console-errors';
import { failedLoad, useServerAndBrowser } from './support';

// The team as an owner and a new colleague meet it (docs/inbox.md, "The team"), in Chromium against
// a real SMTP server: the owner invites from the Team view, the invitee opens the e-mail's link,
// chooses a password (a common one refused) and is signed in, sets up an authenticator app from its
// QR code's key, and signs in again with a code; axe on every new view.

let smtp: SmtpReceiver | undefined;
const e2e = useServerAndBrowser(async () => {
  smtp = await startSmtpReceiver();
  return { SMTP_URL: smtp.url };
});
afterAll(async () => {
  await smtp?.close();
});

/** Screenshots for docs/inbox.md, "The team" (docs/screenshots/ keeps copies), as the inbox's others are. */
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/**
 * Another signed-out page in a context of its own, after {@link openInbox} opened one in this test:
 * its 401 for the session is the one that page's expectation already takes (one per pattern).
 */
async function anotherPage(path = '/admin', viewport = { width: 1280, height: 900 }) {
  const context = await e2e.browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('close', () => void context.close().catch(() => undefined));
  await page.goto(`${e2e.server.url}${path}`);
  return page;
}

const NEWCOMER = { email: 'lena.newcomer@brand.example', password: 'lena picks a long passphrase' };

describe('the team', () => {
  it('invites a colleague by e-mail, who joins, sets up an authenticator app and signs in with a code', { timeout: 120_000 }, async () => {
    await createInboxUser(e2e.server);
    const owner = await openInbox(e2e);
    await signIn(owner);
    await owner.getByRole('navigation', { name: 'Inbox' }).getByRole('link', { name: 'Team' }).click();
    await expect.poll(() => owner.getByRole('heading', { level: 1 }).innerText()).toBe('Team');
    // An address refused is said of its field, which keeps what was typed and takes the focus.
    expectConsoleError(failedLoad(400, '/api/admin/team/invitations'));
    const address = owner.getByLabel('E-mail address');
    await address.fill('lena at brand');
    await owner.getByRole('button', { name: 'Send the invitation' }).click();
    await expect.poll(() => address.getAttribute('aria-invalid')).toBe('true');
    const problem = owner.locator(`#${await address.getAttribute('aria-describedby')}`);
    expect(await problem.innerText()).toMatch(/e-mail address/i);
    expect(await address.inputValue()).toBe('lena at brand');
    expect(await address.evaluate((field) => field === document.activeElement)).toBe(true);
    await address.fill(NEWCOMER.email);
    await owner.getByLabel('Role', { exact: true }).selectOption('editor');
    await owner.getByRole('button', { name: 'Send the invitation' }).click();
    await expect.poll(() => announcement(owner)).toBe(`Invitation sent to ${NEWCOMER.email}.`);
    await expect.poll(() => owner.getByRole('heading', { name: 'Invitations waiting' }).locator('..').innerText()).toContain(NEWCOMER.email);
    expect(await violations(owner, 'the Team view', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await owner.screenshot({ path: join(SCREENSHOTS, 'inbox-team.png'), fullPage: true });

    const [message] = await smtp!.waitFor(1);
    expect(message!.to).toEqual([NEWCOMER.email]);
    const link = /http:\/\/[^/\s]+\/admin\/invitation#[^\s>"]+/.exec(message!.mail.text ?? '')![0];
    // The link opens a page of its own, signed out: no session is asked for.
    const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const invitee = await context.newPage();
    await invitee.goto(`${e2e.server.url}/admin/invitation${link.slice(link.indexOf('#'))}`);
    await expect.poll(() => invitee.getByRole('heading', { level: 1 }).innerText()).toBe('Join the applications inbox');
    expect(await invitee.locator('main').innerText()).toContain(`${INBOX_USER.email} invited ${NEWCOMER.email} as editor`);
    // The secret leaves the address bar once read.
    expect(new URL(invitee.url()).hash).toBe('');
    expect(await violations(invitee, 'the invitation page', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await invitee.screenshot({ path: join(SCREENSHOTS, 'inbox-invitation.png') });
    expectConsoleError(failedLoad(422, '/api/admin/invitations/accept'));
    await invitee.getByLabel('New password').fill('password123456');
    await invitee.getByLabel('The same password again').fill('password123456');
    await invitee.getByRole('button', { name: 'Join and sign in' }).click();
    await expect.poll(() => invitee.getByRole('alert').innerText()).toContain('common or breached');
    await invitee.getByLabel('New password').fill(NEWCOMER.password);
    await invitee.getByLabel('The same password again').fill(NEWCOMER.password);
    await invitee.getByRole('button', { name: 'Join and sign in' }).click();
    await invitee.getByRole('navigation', { name: 'Inbox' }).waitFor();
    // An editor: no Team view.
    expect(await invitee.getByRole('navigation', { name: 'Inbox' }).getByRole('link', { name: 'Team' }).count()).toBe(0);

    await invitee.getByRole('link', { name: `Your account: ${NEWCOMER.email}` }).click();
    await expect.poll(() => invitee.getByRole('heading', { level: 1 }).innerText()).toBe('Your account');
    // From a signed-in session a new factor asks for the password again.
    const confirm = invitee.getByRole('dialog', { name: 'Enter your password' });
    // Escape cancels: nothing is set up.
    await invitee.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await confirm.waitFor();
    await invitee.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await invitee.locator('code').count()).toBe(0);
    await invitee.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await confirm.waitFor();
    await invitee.screenshot({ path: join(SCREENSHOTS, 'inbox-password-again.png') });
    expect(await violations(invitee, 'the password asked again', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    // Typed where it is masked, the dialog's one field has the focus; a wrong one is said there, to type again.
    expectConsoleError(failedLoad(403, '/api/admin/me/totp'));
    await invitee.keyboard.type('not my password at all');
    expect(await confirm.getByLabel('Password').getAttribute('type')).toBe('password');
    await invitee.keyboard.press('Enter');
    await expect.poll(() => confirm.getByRole('alert').innerText()).toContain('not right');
    expect(await confirm.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await invitee.keyboard.type(NEWCOMER.password);
    await invitee.keyboard.press('Enter');
    const secret = (await invitee.locator('code').first().innerText()).replaceAll(' ', '');
    expect(
      await invitee
        .getByRole('img', { name: /QR code/ })
        .locator('svg')
        .count(),
    ).toBe(1);
    expect(await violations(invitee, 'the authenticator app setup', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await invitee.screenshot({ path: join(SCREENSHOTS, 'inbox-account-app.png'), fullPage: true });
    await invitee.getByLabel('Code from the app').fill(await totpCode(secret, Date.now()));
    await invitee.getByRole('button', { name: 'Confirm' }).click();
    await invitee.getByRole('heading', { name: 'Your 10 recovery codes' }).waitFor();
    expect(await invitee.locator('.recovery-codes li').count()).toBe(10);
    // They can be downloaded as a text file, every code in it.
    const [download] = await Promise.all([invitee.waitForEvent('download'), invitee.getByRole('link', { name: 'Download them' }).click()]);
    const file = join(tmpdir(), `recovery-codes-${process.pid}.txt`);
    await download.saveAs(file);
    const saved = await readFile(file, 'utf8');
    await rm(file);
    for (const code of await invitee.locator('.recovery-codes code').allInnerTexts()) expect(saved).toContain(code);
    expect(await violations(invitee, 'the account view', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await invitee.getByRole('button', { name: 'I have kept them' }).click();
    await invitee.getByRole('button', { name: 'Sign out' }).click();

    // Signing in again asks for a code: one of the next step (the one just used is taken).
    await invitee.getByLabel('Email').fill(NEWCOMER.email);
    await invitee.getByLabel('Password').fill(NEWCOMER.password);
    await invitee.getByRole('button', { name: 'Sign in' }).click();
    await invitee.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    expect(await violations(invitee, 'the second step of the sign-in', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await invitee.screenshot({ path: join(SCREENSHOTS, 'inbox-second-step.png') });
    expectConsoleError(failedLoad(401, '/api/admin/session/second-factor'));
    await invitee.getByLabel(/Code from your authenticator app/).fill('000000');
    await invitee.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => invitee.getByRole('alert').innerText()).toContain('not right');
    await invitee.getByLabel(/Code from your authenticator app/).fill(await totpCode(secret, Date.now() + 30_000));
    await invitee.getByRole('button', { name: 'Sign in' }).click();
    await signedIn(invitee);
    await invitee.getByRole('navigation', { name: 'Inbox' }).waitFor();
    await context.close();
    // The member was told of the second factor added, by e-mail.
    await expect
      .poll(() =>
        smtp!.received.some((mail) => mail.to.includes(NEWCOMER.email) && mail.mail.subject === 'Your applications inbox account: second factor added'),
      )
      .toBe(true);

    // The owner sees the new member with a second factor, and the audit log says what happened.
    await owner.reload();
    await expect.poll(() => owner.getByRole('heading', { name: 'Members' }).locator('..').innerText()).toContain(NEWCOMER.email);
    const audit = owner.getByRole('heading', { name: 'Audit log' }).locator('..');
    await owner.getByLabel('Person (e-mail)').fill(NEWCOMER.email);
    await expect.poll(() => audit.innerText()).toContain('Second factor added');
    expect(await audit.innerText()).toContain('Invitation accepted');
    await owner.screenshot({ path: join(SCREENSHOTS, 'inbox-team-audit.png'), fullPage: true });
  });

  it('an owner requires a second factor: a member without one sets one up before anything else', { timeout: 120_000 }, async () => {
    await createInboxUser(e2e.server, INBOX_VIEWER, 'viewer');
    const owner = await openInbox(e2e);
    await signIn(owner);
    await owner.getByRole('navigation', { name: 'Inbox' }).getByRole('link', { name: 'Team' }).click();
    await owner.getByRole('checkbox', { name: /Require a second factor/ }).check();
    await expect.poll(() => announcement(owner)).toBe('A second factor is required from the next sign-in.');

    const member = await anotherPage();
    await signIn(member, INBOX_VIEWER);
    await expect.poll(() => member.getByRole('heading', { level: 1 }).innerText()).toBe('Your account');
    expect(await member.getByRole('status').first().innerText()).toContain('The team requires a second factor');
    // Nothing else is reachable until then.
    expect(await member.getByRole('navigation', { name: 'Inbox' }).count()).toBe(0);
    expect(await violations(member, 'the setup a team requires', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await member.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await member.locator('code').first().innerText()).replaceAll(' ', '');
    await member.getByLabel('Code from the app').fill(await totpCode(secret, Date.now()));
    await member.getByRole('button', { name: 'Confirm' }).click();
    await member.getByRole('button', { name: 'I have kept them' }).click();
    await member.getByRole('navigation', { name: 'Inbox' }).waitFor();
    await owner.getByRole('checkbox', { name: /Require a second factor/ }).uncheck();
    await expect.poll(() => announcement(owner)).toBe('A second factor is no longer required.');

    // A role changed shows as changed, said where it was made; on a phone the members are cards, nothing scrolls sideways.
    await owner.setViewportSize({ width: 375, height: 812 });
    const members = owner.getByRole('heading', { name: 'Members' }).locator('..');
    const roleOf = owner.getByLabel(`Role of ${INBOX_VIEWER.email}`);
    await roleOf.selectOption('editor');
    await owner.getByRole('button', { name: `Make ${INBOX_VIEWER.email} editor` }).click();
    await expect.poll(() => members.innerText()).toContain(`${INBOX_VIEWER.email} is now editor.`);
    expect(await roleOf.inputValue()).toBe('editor');
    expect(await owner.getByRole('button', { name: /^Make / }).count()).toBe(0);
    expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await owner.getByRole('button', { name: `Remove ${INBOX_VIEWER.email}` }).isVisible()).toBe(true);
    expect(await violations(owner, 'the Team view on a phone', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await owner.screenshot({ path: join(SCREENSHOTS, 'inbox-team-phone.png'), fullPage: true });
  });

  it('resets a forgotten password from the sign-in: the link by e-mail, a new password, signed out everywhere', { timeout: 120_000 }, async () => {
    const open = await openInbox(e2e);
    await signIn(open, INBOX_VIEWER);
    const page = await anotherPage();
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(INBOX_VIEWER.email);
    const before = smtp!.received.length;
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain('If this address has an account');
    expect(await violations(page, 'the reset request', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    // The reset's message (a security notice of the last test may come in between).
    const resetLink = /http:\/\/[^/\s]+\/admin\/reset-password#[^\s>"]+/;
    const linkIn = () =>
      smtp!.received
        .slice(before)
        .map((mail) => (mail.to.includes(INBOX_VIEWER.email) ? resetLink.exec(mail.mail.text ?? '')?.[0] : undefined))
        .find(Boolean);
    await expect.poll(linkIn).toBeTruthy();
    const link = linkIn()!;
    const reset = await anotherPage(`/admin/reset-password${link.slice(link.indexOf('#'))}`, { width: 390, height: 844 });
    await expect.poll(() => reset.getByRole('heading', { level: 1 }).innerText()).toBe('Choose a new password');
    expect(await violations(reset, 'the reset page', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await reset.getByLabel('New password').fill('the viewer has a new passphrase');
    await reset.getByLabel('The same password again').fill('the viewer has a new passphrase');
    await reset.getByRole('button', { name: 'Save the new password' }).click();
    await expect.poll(() => reset.getByRole('status').innerText()).toContain('signed out everywhere');
    await reset.close();
    // Opened again, the link says at once that it was used (nothing to type first).
    expectConsoleError(failedLoad(404, '/api/admin/password-reset/offer'));
    const again = await anotherPage(`/admin/reset-password${link.slice(link.indexOf('#'))}`);
    await expect.poll(() => again.getByRole('alert').innerText()).toContain('used already');
    expect(await again.getByLabel('New password').count()).toBe(0);
    await again.close();
    // The session open elsewhere has ended: reloaded, it shows the sign-in.
    await open.reload();
    await open.getByRole('heading', { name: 'Sign in to the applications inbox' }).waitFor();
    await signIn(open, { email: INBOX_VIEWER.email, password: 'the viewer has a new passphrase' });
  });
});
