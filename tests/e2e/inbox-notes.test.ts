import { beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../factories/application';
import { createInboxUser, openInbox, signIn, submitApplication, violations } from './inbox-support';
import { useServerAndBrowser } from './support';

// In Chromium against the real server: the notes thread (add, edit,
// delete, focus and announcements), tags (create inline, apply, filter the list by one), and the
// creator at a glance (tel: link, flag, total reach, earlier applications by handle); axe.

const HOSTILE_NOTE = 'Call <img src=x onerror="window.__xss=1"> back';

const e2e = useServerAndBrowser();
const ids: Record<string, string> = {};
beforeAll(async () => {
  await createInboxUser(e2e.server);
  // Kit first, with Ada's Instagram handle written otherwise; then Ada (Instagram 1 200 + TikTok 340 followers).
  ids.kit = await submitApplication(
    e2e.server,
    applicantPayload({ firstName: 'Kit', lastName: 'Lane', email: 'kit@example.com', country: 'FR', instagram: '@ADA.makes' }),
  );
  ids.ada = await submitApplication(
    e2e.server,
    applicantPayload({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', country: 'GB', instagram: 'ada.makes', tiktok: 'ada.tok' }),
  );
});

describe('notes, tags and the creator at a glance in Chromium', () => {
  it('shows the creator at a glance, keeps a notes thread, tags the application and filters the list by the tag', async () => {
    const page = await openInbox(e2e, `/admin/applications/${ids.ada}`);
    await signIn(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Ada Lovelace');

    // Creator at a glance.
    const panel = page.getByRole('region', { name: 'Creator at a glance' });
    expect(await panel.getByRole('link', { name: '+447400123456' }).getAttribute('href')).toBe('tel:+447400123456');
    expect(await panel.getByText('1,540 followers').count()).toBe(1);
    expect(await panel.getByRole('link', { name: 'Instagram: ada.makes' }).getAttribute('href')).toBe('https://www.instagram.com/ada.makes');
    expect(await panel.textContent()).toContain('1,200 followers');
    const flag = panel.locator('img.flag');
    expect(await flag.getAttribute('src')).toMatch(/^\/flags\/[^/]+\/4x3\/gb\.svg$/);
    // The SVG loaded (the CSP allows it: this origin).
    await expect.poll(() => flag.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    const earlier = panel.getByRole('list', { name: 'Earlier applications' });
    expect(await earlier.getByRole('listitem').filter({ hasText: 'Kit Lane' }).textContent()).toContain('same handle');

    // A note: added, shown as text, focus back on the field, announced.
    const newNote = page.getByRole('textbox', { name: 'New note' });
    await newNote.fill(HOSTILE_NOTE);
    await page.getByRole('button', { name: 'Add note' }).click();
    const thread = page.getByRole('region', { name: 'Notes' });
    await expect.poll(() => thread.getByRole('status').textContent()).toBe('Note added.');
    const article = thread.getByRole('article');
    expect(await article.count()).toBe(1);
    expect(await article.locator('.note-text').textContent()).toBe(HOSTILE_NOTE);
    expect(await article.locator('img').count()).toBe(0);
    expect(await article.textContent()).toContain('reviewer@brand.example');
    expect(await newNote.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await newNote.inputValue()).toBe('');

    // Edited: the note takes focus and says it was edited.
    await article.getByRole('button', { name: /^Edit/ }).click();
    const editor = article.getByRole('textbox', { name: 'Edit your note' });
    expect(await editor.evaluate((element) => element === document.activeElement)).toBe(true);
    await editor.fill('Call back on Monday');
    await article.getByRole('button', { name: 'Save note' }).click();
    await expect.poll(() => thread.getByRole('status').textContent()).toBe('Note saved.');
    await expect.poll(() => article.locator('.note-text').textContent()).toBe('Call back on Monday');
    expect(await article.textContent()).toContain('edited');
    await expect.poll(() => article.evaluate((element) => element === document.activeElement)).toBe(true);

    // A tag created inline, applied, announced.
    await page.getByRole('combobox', { name: 'Add a tag' }).fill('Gifting');
    await page.getByRole('button', { name: 'Add tag' }).click();
    const tags = page.getByRole('region', { name: 'Tags' });
    await expect.poll(() => tags.getByRole('status').textContent()).toBe('Tagged Gifting.');
    expect(await tags.getByRole('list', { name: 'Tags of this application' }).textContent()).toContain('Gifting');
    await expect.poll(() => page.getByRole('table', { name: 'Changes to this application' }).textContent()).toContain('Tagged: Gifting');

    expect(await violations(page, 'detail with a note and a tag')).toEqual([]);

    // The list filtered by the tag: Ada only.
    await page.getByRole('link', { name: '← Back to the applications' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Kit Lane' }).count()).toBe(1);
    await page.getByRole('combobox', { name: 'Tag' }).selectOption({ label: 'Gifting' });
    await expect.poll(() => page.getByRole('link', { name: 'Kit Lane' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Ada Lovelace' }).count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('tag')).toMatch(/\S/);

    // Back on Ada: the note deleted after a confirmation, focus on the field for a new one.
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page
      .getByRole('region', { name: 'Notes' })
      .getByRole('button', { name: /^Delete/ })
      .click();
    await page.getByRole('button', { name: 'Delete note' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Notes' }).getByRole('status').textContent()).toBe('Note deleted.');
    expect(await page.getByRole('region', { name: 'Notes' }).getByRole('article').count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'New note' }).evaluate((element) => element === document.activeElement)).toBe(true);

    // The tag removed with its button.
    await page.getByRole('button', { name: 'Remove tag Gifting' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Tags' }).getByRole('status').textContent()).toBe('Tag Gifting removed.');
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });
});
