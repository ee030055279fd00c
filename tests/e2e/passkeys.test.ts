import { describe, expect, it } from 'vitest';
import { expectConsoleError } from '../support/console-errors';
import { INBOX_USER, WCAG_AND_BEST_PRACTICES, announcement, createInboxUser, signedIn, violations } from './inbox-support';
import { failedLoad, freePort, useServerAndBrowser } from './support';

// Passkeys (WebAuthn) as a member meets them (docs/inbox.md, "The team"), through Chromium's
// virtual authenticator (DevTools protocol `WebAuthn.addVirtualAuthenticator`): added from Your
// account, then the second step of the sign-in. A passkey belongs to the inbox's address
// (`PUBLIC_URL`), so the server is opened at that address: http://localhost:<port>.

let port = 0;
const e2e = useServerAndBrowser(async () => {
  port = await freePort();
  return { PORT: String(port), PUBLIC_URL: `http://localhost:${port}` };
});

describe('passkeys', () => {
  it('adds a passkey from Your account and signs in with it as the second step', { timeout: 120_000 }, async () => {
    await createInboxUser(e2e.server);
    const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = (await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    })) as { authenticatorId: string };
    expectConsoleError(failedLoad(401, '/api/admin/session'));
    await page.goto(`http://localhost:${port}/admin`);
    await page.getByLabel('Email').fill(INBOX_USER.email);
    await page.getByLabel('Password').fill(INBOX_USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signedIn(page);
    await page.getByRole('link', { name: `Your account: ${INBOX_USER.email}` }).click();
    await page.getByLabel('Name of the new passkey').fill('Work laptop');
    // From a signed-in session a new factor asks for the password again.
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const confirm = page.getByRole('dialog', { name: 'Enter your password' });
    await confirm.getByLabel('Password').fill(INBOX_USER.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => announcement(page)).toBe('The passkey is added.');
    await expect.poll(() => page.getByRole('heading', { name: 'Second factors' }).locator('..').innerText()).toContain('Work laptop');
    expect(await violations(page, 'your account with a passkey', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    // The authenticator holds one credential, for the inbox's host name.
    const { credentials } = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })) as { credentials: { rpId: string }[] };
    expect(credentials.map((credential) => credential.rpId)).toEqual(['localhost']);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill(INBOX_USER.email);
    await page.getByLabel('Password').fill(INBOX_USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    await page.getByRole('button', { name: 'Use your passkey' }).click();
    await page.getByRole('navigation', { name: 'Inbox' }).waitFor();
    expect(await page.getByRole('link', { name: `Your account: ${INBOX_USER.email}` }).count()).toBe(1);
    await context.close();
  });
});
