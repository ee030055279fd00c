import { beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../factories/application';
import { announcement, createInboxUser, openInbox, signIn, submitApplication } from './inbox-support';
import { useServerAndBrowser } from './support';

// The list's cursor pages through TanStack Query's infinite query — "Load more" appends
// the next 50 in the view's sort, and a selection made on the first page outlives it.

const COUNT = 55;
// 55 submissions from one address: past the default 30 a minute.
const e2e = useServerAndBrowser({ RATE_LIMIT_PER_MINUTE: '1000' });
beforeAll(async () => {
  await createInboxUser(e2e.server);
  for (let i = 0; i < COUNT; i++) {
    const n = String(i).padStart(2, '0');
    await submitApplication(e2e.server, applicantPayload({ firstName: `Maker${n}`, lastName: 'Test', email: `maker${n}@example.com`, instagram: `maker${n}` }));
  }
}, 120_000);

describe('the list in pages', () => {
  it('loads the next page of the view in its sort, keeping the selection', async () => {
    const page = await openInbox(e2e, '/admin?sort=name&dir=asc');
    await signIn(page);
    const names = () => page.locator('tbody tr .applicant-name').allInnerTexts();
    await expect.poll(names).toHaveLength(50);
    expect((await names())[0]).toBe('Maker00 Test');
    await page.getByRole('checkbox', { name: 'Select Maker00 Test' }).check();
    // From the keyboard: focus moves to the first row loaded (the button is gone), and the count is said.
    await page.getByRole('button', { name: 'Load more' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(names).toHaveLength(COUNT);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Maker50 Test');
    await expect.poll(() => announcement(page)).toBe('5 more applications loaded.');
    expect((await names()).slice(48)).toEqual(['Maker48 Test', 'Maker49 Test', 'Maker50 Test', 'Maker51 Test', 'Maker52 Test', 'Maker53 Test', 'Maker54 Test']);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: 'Select Maker00 Test' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'Select all shown applications' }).check();
    await expect.poll(() => page.getByRole('group', { name: 'Selected applications' }).innerText()).toContain(`${COUNT} selected`);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });
});
