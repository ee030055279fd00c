import { afterAll, describe, expect, it } from 'vitest';
import { expectConsoleError } from '../support/console-errors';
import { DEFAULT_MESSAGES } from '../../src/shared/messages';
import { rawDefaultConfig } from '../factories/application';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-server';
import { currentStep, fillDefaultStep, pick } from './flows';
import { WCAG_AND_BEST_PRACTICES, createInboxUser, openInbox, signIn, violations } from './inbox-support';
import { useServerAndBrowser, writeConfig } from './support';

// A minor's application on a page that asks a parent or guardian (requirements §20), in Chromium
// against a real SMTP server: the wizard asks for the guardian after the age, the guardian's
// e-mail links to a page that passes axe, and consent brings the application to the inbox.

let smtp: SmtpReceiver | undefined;
const e2e = useServerAndBrowser(async () => {
  smtp = await startSmtpReceiver();
  const raw = rawDefaultConfig();
  raw.ageScreen = { minimumAge: 13, minors: 'guardian' };
  raw.steps[2].blocks.push({ component: 'consent', data: { purpose: 'newsletter', label: 'Send me the <b>next campaigns</b> by e-mail.' } });
  return { WIZARD_CONFIG: writeConfig(raw, 'guardian.json'), SMTP_URL: smtp.url };
});
afterAll(async () => {
  await smtp?.close();
});

/** A phone's page past the welcome step and the age screen, answered as a 15-year-old: on the guardian's details. */
async function answerAsMinor() {
  const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(e2e.server.url);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.locator('.age-screen').waitFor();
  await pick(page, 'Month', 'mar', 'March');
  await page.getByLabel('Year', { exact: true }).fill(String(new Date().getUTCFullYear() - 15));
  await page.getByRole('button', { name: 'Continue' }).click();
  return { context, page };
}

describe("a minor's parent or guardian", () => {
  it('is asked for by the wizard after the age, e-mailed, and consents on a page of their own; the inbox then has the application', async () => {
    const { context, page } = await answerAsMinor();

    // Only now, after the answer, a word of why: the guardian's name and address.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(DEFAULT_MESSAGES.guardianHeading);
    expect(await page.getByRole('heading', { level: 1 }).evaluate((heading) => heading === document.activeElement)).toBe(true);
    // No going back to answer again as an adult: back to the welcome step and on, the same answer asks the same.
    await page.getByRole('button', { name: 'Back', exact: true }).first().click();
    await expect.poll(() => currentStep(page)).toBe('Welcome');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(DEFAULT_MESSAGES.guardianHeading);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByText(DEFAULT_MESSAGES.required).count()).toBe(2);
    expect(await violations(page, 'the guardian asked for, with errors', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await page.getByLabel(DEFAULT_MESSAGES.guardianNameLabel, { exact: true }).fill('Pat Tanaka');
    // Mistyped: caught on the step that sends the application.
    await page.getByLabel(DEFAULT_MESSAGES.guardianEmailLabel, { exact: true }).fill('pat.tanaka@exmaple.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('.age-screen').waitFor({ state: 'detached' });
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');

    // The rest as any applicant; a reload on the way keeps the screen's answers (no second asking).
    await fillDefaultStep(page, 1);
    await page.reload();
    await page.getByLabel('First name', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('More Details');
    await fillDefaultStep(page, 2);
    // Whom the brand will ask, and a way to change it before anything is sent.
    await expect
      .poll(() => page.locator('.guardian-review p').innerText())
      .toBe('We will ask Pat Tanaka (pat.tanaka@exmaple.com) to agree to your application.');
    await page.getByRole('button', { name: DEFAULT_MESSAGES.guardianChange }).click();
    const address = page.getByLabel(DEFAULT_MESSAGES.guardianEmailLabel, { exact: true });
    await expect.poll(() => address.evaluate((input) => input === document.activeElement || input.closest('.guardian-review') !== null)).toBe(true);
    await address.fill('');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => address.getAttribute('aria-invalid')).toBe('true');
    expect(await address.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await violations(page, 'the guardian changed on the sending step, with an error', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await address.fill('pat.tanaka@example.com');
    const put = page.waitForRequest((request) => request.method() === 'PUT');
    await page.getByRole('button', { name: 'Submit application' }).click();
    expect((await put).postDataJSON()).toMatchObject({ guardian: { name: 'Pat Tanaka', emailAddress: 'pat.tanaka@example.com' } });
    await expect.poll(() => currentStep(page)).toBe('Creator Hub');
    // The minor is told what happens now.
    expect(await page.getByRole('status').filter({ hasText: DEFAULT_MESSAGES.guardianAsked }).count()).toBe(1);
    expect(e2e.server.rows()).toEqual([]);

    // The guardian's message, and the page its link opens.
    const [message] = await smtp!.waitFor(1);
    expect(message!.to).toEqual(['pat.tanaka@example.com']);
    const link = new URL(/https?:\/\/\S+\/guardian\/[^\s<>"]+/.exec(message!.mail.text ?? '')![0]);
    const guardian = await context.newPage();
    await guardian.goto(`${e2e.server.url}${link.pathname}`);
    expect(await guardian.getByRole('heading', { level: 1 }).innerText()).toBe('Your consent for Kai Tanaka');
    expect(await guardian.getByText('kai@example.com').count()).toBe(1);
    expect(await violations(guardian, 'the guardian’s page', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await guardian.getByRole('button', { name: DEFAULT_MESSAGES.guardianConsent }).click();
    await expect.poll(() => guardian.getByRole('heading', { level: 1 }).innerText()).toMatch(/^Thank you\. The application is now with/);
    expect(await violations(guardian, 'the consent given', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await expect.poll(() => e2e.server.rows().length).toBe(1);

    // In the inbox, with the consent in its history.
    await createInboxUser(e2e.server);
    const inbox = await openInbox(e2e, `/admin/applications/${e2e.server.rows()[0]!.id}`);
    await signIn(inbox);
    await expect.poll(() => inbox.getByText('A parent or guardian consented').count()).toBe(1);
    // The consent records, as the minor gave them (the newsletter's box left unticked).
    const consents = inbox.getByRole('table', { name: 'What the creator agreed to, and withdrew' });
    await expect
      .poll(() => consents.getByRole('row').nth(1).innerText())
      .toMatch(/newsletter: Send me the next campaigns by e-mail\.\s+Not given\s+Default page, en; SHA-256/);
    expect(await violations(inbox, 'the application with its consents', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await context.close();
  });

  it("that is the minor's own address is said at the minor's e-mail field, where it can be changed", async () => {
    const before = smtp!.received.length;
    expectConsoleError(/status of 400 \(Bad Request\).*\/api\/syncPage\/creators/);
    const { context, page } = await answerAsMinor();
    await page.getByLabel(DEFAULT_MESSAGES.guardianNameLabel, { exact: true }).fill('Pat Tanaka');
    // The address the minor then gives as their own (fillDefaultStep's).
    await page.getByLabel(DEFAULT_MESSAGES.guardianEmailLabel, { exact: true }).fill('KAI@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    await fillDefaultStep(page, 1);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('More Details');
    await fillDefaultStep(page, 2);
    await page.getByRole('button', { name: 'Submit application' }).click();

    // Back on the step that asks the minor's address, the field saying why; nothing about a screen they cannot reach.
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    const email = page.getByLabel('Email', { exact: true });
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText(DEFAULT_MESSAGES.ownEmailIsGuardians).count()).toBe(1);
    expect(await page.getByText(DEFAULT_MESSAGES.guardianEmailOwn).count()).toBe(0);
    await email.fill('kai.tanaka@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('More Details');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => currentStep(page)).toBe('Creator Hub');
    // The guardian asked, at the address given for them.
    await expect.poll(() => smtp!.received.slice(before).some((message) => message.to.some((to) => to.toLowerCase() === 'kai@example.com'))).toBe(true);
    await context.close();
  });
});
