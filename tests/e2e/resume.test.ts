import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MESSAGES } from '../../src/shared/messages';
import { expectConsoleError } from '../support/console-errors';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-server';
import { currentStep, fillDefaultStep, pick } from './flows';
import { WCAG_AND_BEST_PRACTICES, violations } from './inbox-support';
import { failedLoad, useServerAndBrowser } from './support';

// Resume on another device (requirements §22), in Chromium against a real SMTP server: asked for on
// a phone, the link e-mailed opens the application on its step with every answer in another
// browser (a context of its own: another device), which sends it; nothing is kept unless asked,
// and a link that no longer works says so.

let smtp: SmtpReceiver | undefined;
const e2e = useServerAndBrowser(async () => {
  smtp = await startSmtpReceiver();
  return { SMTP_URL: smtp.url };
});
afterAll(async () => {
  await smtp?.close();
});

describe('finishing on another device', () => {
  it('e-mails a link on request that opens the application on its step with every answer on another device, which sends it', async () => {
    const phone = await e2e.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await phone.newPage();
    const drafts: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/drafts')) drafts.push(request.method());
    });
    await page.goto(e2e.server.url);
    // Not on the welcome step: nothing typed yet.
    expect(await page.getByRole('button', { name: DEFAULT_MESSAGES.resumeLater }).count()).toBe(0);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    await fillDefaultStep(page, 1);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => currentStep(page)).toBe('More Details');
    await pick(page, /familiar/, 'very', 'Very familiar');
    await page.getByLabel(/dream campaign/).fill('Putty in space');
    // Nothing has gone to the server: a draft is kept there only when asked.
    expect(drafts).toEqual([]);

    await page.getByRole('button', { name: DEFAULT_MESSAGES.resumeLater }).click();
    const address = page.getByLabel(DEFAULT_MESSAGES.resumeLaterEmailLabel, { exact: true });
    // The address typed on the page, ready to send; focus on it.
    await expect.poll(() => address.inputValue()).toBe('kai@example.com');
    expect(await address.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await violations(page, 'the form asking for a link', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    // Enter sends the link, not the step.
    await address.press('Enter');
    await expect.poll(() => page.locator('.resume-later [role="status"]').innerText()).toMatch(/^We sent the link to kai@example\.com\. It works until /);
    expect(await currentStep(page)).toBe('More Details');
    expect(drafts).toEqual(['POST']);

    const [message] = await smtp!.waitFor(1);
    expect(message!.to).toEqual(['kai@example.com']);
    expect(message!.mail.subject).toBe("Continue your application to Crazy Aaron's Creator Application");
    const link = /https?:\/\/[^\s<>"]+#resume=[^\s<>"]+/.exec(message!.mail.text ?? '')?.[0];
    expect(link, message!.mail.text).toBeDefined();
    await phone.close();

    // Another device: a browser with nothing of the first.
    const desk = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const other = await desk.newPage();
    await other.goto(link!.replace(/^https?:\/\/[^/]+/, e2e.server.url));
    await expect.poll(() => currentStep(other), { timeout: 10_000 }).toBe('More Details');
    // The link's secret leaves the address bar.
    expect(new URL(other.url()).hash).toBe('');
    expect(await other.getByRole('combobox', { name: /familiar/ }).inputValue()).toBe('Very familiar');
    expect(await other.getByLabel(/dream campaign/).inputValue()).toBe('Putty in space');
    await other.getByRole('button', { name: 'Back', exact: true }).last().click();
    await expect.poll(() => currentStep(other)).toBe('Introduce Yourself');
    expect(await other.getByLabel('First name', { exact: true }).inputValue()).toBe('Kai');
    expect(await other.getByLabel('Instagram handle').inputValue()).toBe('kai.makes');
    await other.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => currentStep(other)).toBe('More Details');
    // The rest of the step, then the send.
    await pick(other, /often/, 'some', 'Sometimes');
    await other.getByRole('radio', { name: 'Yes' }).check();
    await other.getByLabel(/brands/).fill('Brand A');
    await other.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => currentStep(other), { timeout: 10_000 }).toBe('Creator Hub');
    const stored = e2e.server.rows().filter((row) => row.email === 'kai@example.com');
    expect(stored).toHaveLength(1);
    expect(JSON.parse(stored[0]!.payload)).toMatchObject({ personalInfo: { firstName: 'Kai' }, fields: { dreamCampaign: 'Putty in space' } });
    // Sent: the link's draft is erased, and the link says so (no second application from it).
    expectConsoleError(failedLoad(410, '/api/draft-links/open'));
    const again = await desk.newPage();
    await expect
      .poll(
        async () => {
          await again.goto(link!.replace(/^https?:\/\/[^/]+/, e2e.server.url));
          return again.locator('.form-error').innerText();
        },
        { timeout: 10_000 },
      )
      .toBe(DEFAULT_MESSAGES.resumeLinkGone);
    expect(await currentStep(again)).toBe('Welcome');
    await desk.close();
  });

  it('says when a link no longer works, and starts the page afresh', async () => {
    expectConsoleError(failedLoad(404, '/api/draft-links/open'));
    const page = await e2e.browser.newPage();
    await page.goto(`${e2e.server.url}/?page=creators#resume=0193a8f0-0000-7000-8000-000000000000.bm90IGEgcmVhbCBtYWM`);
    await expect.poll(() => page.locator('.form-error').innerText(), { timeout: 10_000 }).toBe(DEFAULT_MESSAGES.resumeLinkBroken);
    expect(await currentStep(page)).toBe('Welcome');
    expect(new URL(page.url()).hash).toBe('');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    await page.close();
  });
});
