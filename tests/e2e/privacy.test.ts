import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { PersonExport } from '../../src/shared/person';
import { validPayload } from '../factories/application';
import { INBOX_VIEWER, WCAG_AND_BEST_PRACTICES, announcement, createInboxUser, openInbox, signIn, submitApplication, violations } from './inbox-support';
import { useServerAndBrowser } from './support';

// The inbox's Privacy view (docs/privacy.md): a person's data downloaded as JSON, then erased, in Chromium.

const e2e = useServerAndBrowser();

describe('privacy', () => {
  it("downloads a person's data as one JSON file and erases it after a second, explicit confirmation", async () => {
    await createInboxUser(e2e.server);
    const payload = validPayload();
    payload.personalInfo = { ...payload.personalInfo, emailAddress: 'Nora.Privacy@example.com', firstName: 'Nora' };
    const id = await submitApplication(e2e.server, payload);
    const page = await openInbox(e2e);
    await signIn(page);
    await page.getByRole('navigation', { name: 'Inbox' }).getByRole('link', { name: 'Privacy' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Privacy');
    expect(await violations(page, 'the privacy view', WCAG_AND_BEST_PRACTICES)).toEqual([]);

    // Not an address: said, and the field keeps focus and what was typed.
    const field = page.getByLabel('E-mail address they applied with');
    await field.fill('nora');
    await page.getByRole('button', { name: 'Download their data' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Enter the e-mail address the person applied with.');
    expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await field.inputValue()).toBe('nora');

    await field.fill('nora.privacy@example.com');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download their data' }).click()]);
    // Saved from what the page read (a blob), named by the day.
    expect(download.suggestedFilename()).toMatch(/^person-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await text(await download.createReadStream())) as PersonExport;
    expect(exported.applications.map((application) => application.id)).toEqual([id]);

    await expect.poll(() => announcement(page)).toMatch(/^Their data \(1 application\) was saved as a JSON file\./);

    // Asked twice, the safe choice focused: a second Enter keeps the data; so does Escape.
    const eraseEverything = page.getByRole('button', { name: 'Erase everything' });
    await eraseEverything.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('group', { name: /Erase the application of nora\.privacy@example\.com/ });
    await confirm.waitFor();
    expect(await violations(page, 'the erasure asked twice', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await eraseEverything.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    await eraseEverything.click();
    await confirm.getByRole('button', { name: 'Erase for good' }).click();
    const said = 'Erased 1 application of nora.privacy@example.com, with their answers, notes, tags, e-mails and webhook deliveries.';
    await expect.poll(() => announcement(page)).toBe(said);
    const gone = await fetch(`${e2e.server.url}/api/admin/applications/${id}`, {
      headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    expect(gone.status).toBe(404);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('tells a viewer to ask an editor, and offers no control', async () => {
    await createInboxUser(e2e.server, INBOX_VIEWER, 'viewer');
    const page = await openInbox(e2e, '/admin/privacy');
    await signIn(page, INBOX_VIEWER);
    await expect
      .poll(() => page.getByText("Your account may read applications but not export or erase a person's data: ask an editor.").isVisible())
      .toBe(true);
    expect(await page.getByRole('button', { name: 'Erase everything' }).count()).toBe(0);
    expect(await violations(page, 'a viewer', WCAG_AND_BEST_PRACTICES)).toEqual([]);
    await page.close();
  });
});
