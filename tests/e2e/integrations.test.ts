import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validPayload } from '../factories/application';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { INBOX_VIEWER, announcement, createInboxUser, openInbox, signIn, submitApplication, violations } from './inbox-support';
import { expectConsoleError } from '../support/console-errors';
import { failedLoad, useServerAndBrowser } from './support';

// The Integrations view (docs/integrations.md): a team adds a webhook endpoint, copies its secret,
// sends a test event, reads the delivery log, pauses and deletes it — keyboard and screen reader
// included (axe), against a real receiver on this machine.

const e2e = useServerAndBrowser({ WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' });
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  await createInboxUser(e2e.server);
  await createInboxUser(e2e.server, INBOX_VIEWER, 'viewer');
});
afterAll(async () => {
  await receiver?.close();
});

describe('the Integrations view', () => {
  it('adds an endpoint, shows its secret once, sends a test event and an application, and logs their deliveries', async () => {
    const page = await openInbox(e2e);
    await signIn(page);
    await page.getByRole('navigation', { name: 'Inbox' }).getByRole('link', { name: 'Integrations' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Integrations');
    await expect.poll(() => page.getByText('No endpoint yet.').isVisible()).toBe(true);

    // A URL the server refuses says why, and keeps what was typed (Chromium logs the 422).
    expectConsoleError(failedLoad(422, '/api/admin/webhooks'));
    await page.getByLabel('Endpoint URL').fill('http://169.254.169.254/latest');
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await expect.poll(() => page.getByRole('alert').first().innerText()).toContain('Webhooks may not point at this address.');
    expect(await page.getByLabel('Endpoint URL').inputValue()).toBe('http://169.254.169.254/latest');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await page.getByLabel('Endpoint URL').getAttribute('id'));
    // No event chosen: the events say so and take focus; the URL is not marked.
    expectConsoleError(failedLoad(400, '/api/admin/webhooks'));
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    const submitted = page.getByRole('checkbox', { name: /An application is submitted/ });
    await submitted.uncheck();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await expect.poll(() => page.getByRole('alert').first().innerText()).toContain('Choose at least one event');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('checkbox');
    expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByRole('group', { name: 'Events to send' }).getAttribute('aria-describedby')).toBeTruthy();
    await submitted.check();

    await page.getByLabel('Description (optional)').fill('The CRM');
    await page.getByRole('checkbox', { name: /An application is accepted/ }).check();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    const secretField = page.getByLabel('Signing secret', { exact: true });
    await expect.poll(() => secretField.isVisible()).toBe(true);
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await announcement(page)).toBe('Endpoint added.');
    expect(await violations(page, 'the secret shown')).toEqual([]);
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await expect.poll(() => announcement(page)).toMatch(/^(Secret copied\.|Copying was refused: the secret is selected, copy it with your keyboard\.)$/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await secretField.count()).toBe(0);

    const endpoint = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'The CRM' }) });
    await endpoint.getByRole('button', { name: 'Send a test event' }).click();
    const [test] = await receiver.waitFor(1);
    expect(new Webhook(secret).verify(test!.body, test!.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
    const log = endpoint.getByRole('table');
    await expect.poll(() => log.getByRole('row').nth(1).innerText()).toMatch(/webhook\.test[\s\S]*delivered[\s\S]*200/);
    // Its outcome is said once it was attempted, not only that it was queued.
    await expect.poll(() => announcement(page), { timeout: 10_000 }).toMatch(/^Test event delivered \(HTTP 200\) in \d+ ms\.$/);
    expect(await endpoint.locator('.test-outcome').innerText()).toMatch(/^Test event delivered/);
    // Each endpoint's controls are named after it.
    expect(await endpoint.getByRole('button', { name: 'Pause The CRM', exact: true }).count()).toBe(1);
    // A rotation asks first, then shows the new secret, focused, once.
    page.once('dialog', (dialog) => void dialog.accept());
    await endpoint.getByRole('button', { name: 'Rotate the secret of The CRM' }).click();
    await expect.poll(() => secretField.isVisible()).toBe(true);
    expect(await secretField.inputValue()).not.toBe(secret);
    expect(await secretField.evaluate((field) => field === document.activeElement)).toBe(true);
    await page.getByRole('button', { name: 'I have copied it' }).click();

    await submitApplication(e2e.server, validPayload());
    await receiver.waitFor(2);
    await expect.poll(() => log.getByRole('row').nth(1).innerText(), { timeout: 10_000 }).toMatch(/application\.submitted[\s\S]*delivered/);
    expect(await violations(page, 'the delivery log')).toEqual([]);

    await endpoint.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => endpoint.innerText()).toContain('State: paused');
    expect(await announcement(page)).toBe('Endpoint paused.');
    page.once('dialog', (dialog) => void dialog.accept());
    await endpoint.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByText('No endpoint yet.').isVisible()).toBe(true);
    // The refused URL's 422 aside (Chromium logs it), no error.
    expect(page.jsErrors.filter((error) => !/status of (422|400)/.test(error))).toEqual([]);
    await page.close();
  });

  it('shows a viewer the endpoints and their logs, and no control that changes them', async () => {
    const page = await openInbox(e2e, '/admin/integrations');
    await signIn(page, INBOX_VIEWER);
    await expect.poll(() => page.getByText('Your account may read the endpoints but not change them.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add the endpoint' }).count()).toBe(0);
    expect(await violations(page, 'a viewer')).toEqual([]);
    await page.close();
  });
});
