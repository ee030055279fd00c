import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { validPayload } from '../factories/application';
import { startSmtpReceiver, type ReceivedEmail, type SmtpReceiver } from '../support/smtp-server';
import {
  INBOX_USER,
  INBOX_VIEWER,
  WCAG_AND_BEST_PRACTICES,
  announcement,
  createInboxUser,
  openInbox,
  signIn,
  submitApplication,
  violations,
} from './inbox-support';
import { saveState } from './pages-support';
import { useServerAndBrowser } from './support';

// E-mail as the team and the creator meet it (docs/email.md), against a real SMTP server on this
// machine: the messages' HTML rendered in Chromium and checked by axe; the inbox's E-mail view
// (the member's notifications, the log, a message shown); the builder's e-mail texts and preview.

let smtp: SmtpReceiver | undefined;
const e2e = useServerAndBrowser(async () => {
  smtp = await startSmtpReceiver();
  return { SMTP_URL: smtp.url, MAIL_FROM: 'Crazy Aaron <creators@brand.example>' };
});
afterAll(async () => {
  await smtp?.close();
});

/** Loads a received message's HTML into a page of its own, as a mail client's reading pane would. */
async function rendered(message: ReceivedEmail): Promise<Page> {
  const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  page.on('close', () => void context.close().catch(() => undefined));
  await page.setContent(message.mail.html as string);
  return page;
}

describe('e-mail', () => {
  it("the creator's confirmation and the member's notification read well and pass axe, in Chromium", async () => {
    await createInboxUser(e2e.server);
    await createInboxUser(e2e.server, INBOX_VIEWER, 'viewer');
    // The viewer asks for each application, in the inbox.
    const inbox = await openInbox(e2e);
    await signIn(inbox, INBOX_VIEWER);
    await inbox.getByRole('navigation', { name: 'Inbox' }).getByRole('link', { name: 'E-mail' }).click();
    await expect.poll(() => inbox.getByRole('heading', { level: 1 }).innerText()).toBe('E-mail');
    const page = inbox.getByRole('group', { name: "Crazy Aaron's Creator Application (creators)" });
    await expect.poll(() => page.getByRole('radio', { name: 'Daily digest' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Each application' }).check();
    await expect.poll(() => announcement(inbox)).toBe("Crazy Aaron's Creator Application: each application.");
    expect(await violations(inbox, 'the e-mail view', WCAG_AND_BEST_PRACTICES)).toEqual([]);

    const payload = validPayload();
    payload.personalInfo = { ...payload.personalInfo, emailAddress: 'creator.e2e@example.com' };
    await submitApplication(e2e.server, payload);
    const received = await smtp!.waitFor(2);
    const confirmation = received.find((message) => message.to.includes('creator.e2e@example.com'))!;
    const notification = received.find((message) => message.to.includes(INBOX_VIEWER.email))!;
    expect(confirmation.mail.subject).toBe("We received your application to Crazy Aaron's Creator Application");
    expect(notification.mail.subject).toMatch(/^New application to Crazy Aaron's Creator Application: /);

    for (const [message, name] of [
      [confirmation, 'the confirmation'],
      [notification, 'the notification'],
    ] as const) {
      const shown = await rendered(message);
      expect(await shown.getByRole('heading', { level: 1 }).innerText()).toBe(message.mail.subject);
      expect(await violations(shown, name, WCAG_AND_BEST_PRACTICES)).toEqual([]);
      // Nothing wider than a phone.
      expect(await shown.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shown.close();
    }
    const answers = await rendered(confirmation);
    expect(await answers.getByRole('heading', { level: 2 }).innerText()).toBe('Your answers');
    expect(await answers.getByRole('link', { name: 'How we use your data' }).getAttribute('href')).toBe('https://crazyaaronsputty.example/privacy');
    await answers.close();

    // The log shows both (read again on opening the view); the confirmation opens in a frame, its plain text below.
    await inbox.reload();
    const log = inbox.getByRole('table');
    await expect.poll(() => log.getByRole('row').count()).toBeGreaterThanOrEqual(3);
    await log.getByRole('button', { name: confirmation.mail.subject as string }).click();
    await expect.poll(() => inbox.getByRole('heading', { level: 2, name: confirmation.mail.subject as string }).isVisible()).toBe(true);
    const frame = inbox.frameLocator(`iframe[title^="The message"]`);
    await expect.poll(() => frame.getByRole('heading', { level: 1 }).innerText()).toBe(confirmation.mail.subject);
    expect(await violations(inbox, 'a message shown', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    expect(inbox.jsErrors).toEqual([]);
  });

  it("the builder edits a page's e-mail texts and previews them as the creator receives them", async () => {
    const page = await openInbox(e2e);
    await signIn(page, INBOX_USER);
    await page.getByRole('navigation', { name: 'Inbox' }).getByRole('link', { name: 'Pages' }).click();
    await page.getByLabel('Page id').fill('mail-texts');
    await page.getByLabel('Start from').selectOption('default');
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL('**/admin/pages/mail-texts');
    await expect.poll(() => saveState(page)).toMatch(/^Saved at/);
    const section = page.getByRole('group', { name: 'E-mail to applicants' });
    const confirmation = section.getByRole('group', { name: 'Confirmation, once the application is stored' });
    await expect.poll(() => confirmation.getByRole('checkbox', { name: 'Send a confirmation' }).isChecked()).toBe(true);
    expect(await confirmation.getByLabel('Subject').getAttribute('placeholder')).toBe('We received your application to {campaign}');
    await confirmation.getByLabel('Subject').fill('Thanks, {firstName}: {campaign} got it');
    await expect.poll(() => saveState(page)).toMatch(/^Saved at/);
    const preview = page.frameLocator('iframe[title="E-mail preview"]');
    await expect
      .poll(() => preview.getByRole('heading', { level: 1 }).innerText(), { timeout: 10_000 })
      .toBe("Thanks, Alex: Crazy Aaron's Creator Application got it");
    // An unknown placeholder is the draft's problem, named at the field.
    await confirmation.getByLabel('Subject').fill('Hi {name}');
    await expect
      .poll(
        () =>
          confirmation
            .getByText(/use only the placeholders/)
            .first()
            .isVisible(),
        { timeout: 10_000 },
      )
      .toBe(true);
    await confirmation.getByLabel('Subject').fill('');
    await expect.poll(() => saveState(page)).toMatch(/^Saved at/);
    await section.getByLabel('E-mail to preview').selectOption('accepted');
    await expect.poll(() => preview.getByRole('heading', { level: 1 }).innerText(), { timeout: 10_000 }).toBe("Welcome to Crazy Aaron's Creator Application");
    // The wizard's own preview is checked in its own tests (pages-builder.test.ts).
    expect(await violations(page, 'the builder with its e-mail section', WCAG_AND_BEST_PRACTICES, 'iframe[title="Preview"]')).toEqual([]);
  });
});
