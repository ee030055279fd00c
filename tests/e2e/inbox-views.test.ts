import { beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../factories/application';
import { createInboxUser, openInbox, signIn, submitApplication, violations } from './inbox-support';
import { useServerAndBrowser } from './support';

// Issue 16: the list sorts by its column headers and filters on the page's answers, and both live
// in the address, so a view can be bookmarked and shared.

const APPLICANTS = [
  { firstName: 'Zoe', lastName: 'Adams', email: 'zoe@example.com', country: 'DE', instagram: 'zoe.makes', followers: '1200', fields: { howFamiliar: 'Super-Fan', whichProducts: 'Thinking Putty, Land of Dough', dreamCampaign: 'A putty castle' } },
  { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', country: 'GB', tiktok: 'ada.tok', followers: '250000', fields: { howFamiliar: 'Unfamiliar', whichProducts: 'Slime Charmers', dreamCampaign: 'Short films' } },
  { firstName: 'Bob', lastName: 'Brown', email: 'bob@example.com', country: 'FR', instagram: 'bob.makes', followers: '40000', fields: { howFamiliar: 'Super-Fan', whichProducts: 'Slime Charmers', dreamCampaign: 'Unboxing' } },
];

const e2e = useServerAndBrowser();
beforeAll(async () => {
  createInboxUser(e2e.server);
  for (const applicant of APPLICANTS) await submitApplication(e2e.server, applicantPayload(applicant));
});

describe('the list as a daily tool (issue 16)', () => {
  it('sorts by a column header, both ways, says which in aria-sort, and keeps the sort in the address', async () => {
    const page = await openInbox(e2e);
    await signIn(page);
    const firstNames = () => page.locator('tbody tr .applicant-name').allInnerTexts();
    await expect.poll(firstNames).toEqual(['Bob Brown', 'Ada Lovelace', 'Zoe Adams']);
    const followers = page.getByRole('columnheader', { name: 'Total followers' });
    await followers.getByRole('button').click();
    await expect.poll(firstNames).toEqual(['Ada Lovelace', 'Bob Brown', 'Zoe Adams']);
    expect(await followers.getAttribute('aria-sort')).toBe('descending');
    expect(await page.getByRole('row', { name: /Ada Lovelace/ }).getByRole('cell').nth(5).innerText()).toBe('250,000');
    await followers.getByRole('button').click();
    await expect.poll(firstNames).toEqual(['Zoe Adams', 'Bob Brown', 'Ada Lovelace']);
    expect(await followers.getAttribute('aria-sort')).toBe('ascending');
    expect(new URL(page.url()).search).toBe('?sort=followers&dir=asc');
    await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
    await expect.poll(firstNames).toEqual(['Ada Lovelace', 'Bob Brown', 'Zoe Adams']);
    expect(await followers.getAttribute('aria-sort')).toBe('none');
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('filters on answers: "Super-Fans who want Thinking Putty"; the view comes back from its address alone, with its counts', async () => {
    const page = await openInbox(e2e);
    await signIn(page);
    const firstNames = () => page.locator('tbody tr .applicant-name').allInnerTexts();
    await expect.poll(firstNames).toHaveLength(3);
    await page.getByText('Answers', { exact: true }).click();
    await page.getByRole('group', { name: /familiar/ }).getByRole('checkbox', { name: 'Super-Fan' }).check();
    await expect.poll(firstNames).toEqual(['Bob Brown', 'Zoe Adams']);
    await page.getByRole('group', { name: /products/ }).getByRole('checkbox', { name: 'Thinking Putty' }).check();
    await expect.poll(firstNames).toEqual(['Zoe Adams']);
    await expect.poll(() => page.getByRole('tab', { name: /All/ }).innerText()).toMatch(/All\s*1/);
    const address = page.url();
    expect(new URL(address).searchParams.getAll('answer')).toEqual(['howFamiliar:Super-Fan', 'whichProducts:Thinking Putty']);
    expect(await violations(page, 'answer filters')).toEqual([]);

    // The address alone brings the same view back (a bookmark, a link shared with the team).
    const shared = page;
    await shared.goto(`${e2e.server.url}/admin`);
    await expect.poll(() => shared.locator('tbody tr .applicant-name').allInnerTexts()).toHaveLength(3);
    await shared.goto(address);
    await expect.poll(() => shared.locator('tbody tr .applicant-name').allInnerTexts()).toEqual(['Zoe Adams']);
    expect(await shared.getByRole('group', { name: /products/ }).getByRole('checkbox', { name: 'Thinking Putty' }).isChecked()).toBe(true);

    // Free text: a dream campaign that mentions putty.
    await shared.getByRole('button', { name: 'Clear answer filters' }).click();
    await expect.poll(() => shared.locator('tbody tr .applicant-name').allInnerTexts()).toHaveLength(3);
    await shared.getByText('Answers', { exact: true }).click();
    const dream = shared.getByRole('searchbox', { name: /dream campaign/ });
    await dream.fill('PUTTY');
    await dream.press('Enter');
    await expect.poll(() => shared.locator('tbody tr .applicant-name').allInnerTexts()).toEqual(['Zoe Adams']);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });
});
