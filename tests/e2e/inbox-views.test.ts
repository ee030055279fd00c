import { beforeAll, describe, expect, it } from 'vitest';
import { applicantPayload } from '../factories/application';
import { VIEW_APPLICANTS as APPLICANTS, createInboxUser, openInbox, signIn, submitApplication, violations } from './inbox-support';
import { useServerAndBrowser } from './support';

// The list sorts by its column headers and filters on the page's answers, and both live
// in the address, so a view can be bookmarked and shared.

const e2e = useServerAndBrowser();
beforeAll(async () => {
  await createInboxUser(e2e.server);
  for (const applicant of APPLICANTS) await submitApplication(e2e.server, applicantPayload(applicant));
});

describe('the list as a daily tool', () => {
  it('sorts by a column header, both ways, says which in aria-sort, and keeps the sort in the address', async () => {
    const page = await openInbox(e2e);
    await signIn(page);
    const firstNames = () => page.locator('tbody tr .applicant-name').allInnerTexts();
    await expect.poll(firstNames).toEqual(['Bob Brown', 'Ada Lovelace', 'Zoe Adams']);
    const followers = page.getByRole('columnheader', { name: 'Total followers' });
    await followers.getByRole('button').click();
    await expect.poll(firstNames).toEqual(['Ada Lovelace', 'Bob Brown', 'Zoe Adams']);
    expect(await followers.getAttribute('aria-sort')).toBe('descending');
    expect(
      await page
        .getByRole('row', { name: /Ada Lovelace/ })
        .getByRole('cell')
        .nth(5)
        .innerText(),
    ).toBe('250,000');
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

  /** Signed in with the list loaded (three applications), and the answer "Super-Fan" ticked. */
  async function superFans() {
    const page = await openInbox(e2e);
    await signIn(page);
    const firstNames = () => page.locator('tbody tr .applicant-name').allInnerTexts();
    await expect.poll(firstNames).toHaveLength(3);
    await page.getByText('Answers', { exact: true }).click();
    await page
      .getByRole('group', { name: /familiar/ })
      .getByRole('checkbox', { name: 'Super-Fan' })
      .check();
    return { page, firstNames };
  }

  it('filters on answers: "Super-Fans who want Thinking Putty"; the view comes back from its address alone, with its counts', async () => {
    const { page, firstNames } = await superFans();
    await expect.poll(firstNames).toEqual(['Bob Brown', 'Zoe Adams']);
    await page
      .getByRole('group', { name: /products/ })
      .getByRole('checkbox', { name: 'Thinking Putty' })
      .check();
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
    expect(
      await shared
        .getByRole('group', { name: /products/ })
        .getByRole('checkbox', { name: 'Thinking Putty' })
        .isChecked(),
    ).toBe(true);

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

  it('triage without round trips: previous and next within the view, j/k to move, s/a/d to decide and move on, ? for the shortcuts', async () => {
    const page = await openInbox(e2e);
    await signIn(page);
    await page.getByRole('columnheader', { name: 'Total followers' }).getByRole('button').click();
    await expect.poll(() => page.locator('tbody tr .applicant-name').allInnerTexts()).toEqual(['Ada Lovelace', 'Bob Brown', 'Zoe Adams']);
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.innerText()).toBe('Ada Lovelace');
    expect(new URL(page.url()).search).toBe('?sort=followers&dir=desc');
    const nav = page.getByRole('navigation', { name: 'Applications in this view' });
    await expect.poll(() => nav.getByRole('link', { name: 'Next →' }).getAttribute('aria-keyshortcuts')).toBe('j');
    await page.keyboard.press('j');
    await expect.poll(() => heading.innerText()).toBe('Bob Brown');
    // Each key acts once the page knows its neighbours (their links are there).
    const previousLink = nav.getByRole('link', { name: '← Previous' });
    await expect.poll(() => previousLink.count()).toBe(1);
    await page.keyboard.press('k');
    await expect.poll(() => heading.innerText()).toBe('Ada Lovelace');
    // A decision moves on to the next application of the view, and says what it did.
    await expect.poll(() => nav.getByRole('link', { name: 'Next →' }).count()).toBe(1);
    await page.keyboard.press('s');
    await expect.poll(() => heading.innerText()).toBe('Bob Brown');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Ada Lovelace: shortlisted. Showing the next application.' }).count()).toBe(1);
    await expect.poll(() => previousLink.count()).toBe(1);
    await page.keyboard.press('k');
    await expect.poll(() => heading.innerText()).toBe('Ada Lovelace');
    await expect.poll(() => page.locator('.meta .badge').innerText()).toBe('Shortlisted');
    // Typing in a field is never a shortcut.
    await page.getByLabel('New note').focus();
    await page.keyboard.type('jk');
    expect(await heading.innerText()).toBe('Ada Lovelace');
    await page.getByLabel('New note').blur();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await help.innerText()).toContain('Accept, then show the next');
    expect(await violations(page, 'shortcuts help')).toEqual([]);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    expect(await violations(page, 'detail with triage')).toEqual([]);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });

  it('saves a view under a name and opens it again; a name saved again replaces it; deleting it takes it away', async () => {
    const { page, firstNames } = await superFans();
    await page.getByRole('columnheader', { name: 'Total followers' }).getByRole('button').click();
    await expect.poll(firstNames).toEqual(['Bob Brown', 'Zoe Adams']);
    await page.getByLabel('Name this view').fill('Super-Fans by reach');
    await page.getByRole('button', { name: 'Save view' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'View "Super-Fans by reach" saved.' }).count()).toBe(1);

    // Back to everything, then the saved view brings the filter and the sort back.
    await page.getByRole('button', { name: 'Clear answer filters' }).click();
    await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
    await expect.poll(firstNames).toEqual(['Ada Lovelace', 'Bob Brown', 'Zoe Adams']);
    // Choosing a view changes nothing until "Open view" (WCAG 3.2.2).
    await page.getByLabel('Saved views', { exact: true }).selectOption({ label: 'Super-Fans by reach' });
    expect(new URL(page.url()).searchParams.get('sort')).toBe('name');
    await page.getByRole('button', { name: 'Open view' }).click();
    await expect.poll(firstNames).toEqual(['Bob Brown', 'Zoe Adams']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('followers');
    expect(await page.getByRole('columnheader', { name: 'Total followers' }).getAttribute('aria-sort')).toBe('descending');
    expect(await violations(page, 'saved views')).toEqual([]);

    // A deletion can be undone: "Undo" saves the view again.
    await page.getByRole('button', { name: 'Delete view “Super-Fans by reach”' }).click();
    await expect.poll(() => page.getByLabel('Saved views', { exact: true }).locator('option').allInnerTexts()).toEqual(['No saved views yet']);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'View "Super-Fans by reach" restored.' }).count()).toBe(1);
    await expect
      .poll(() => page.getByLabel('Saved views', { exact: true }).locator('option').allInnerTexts())
      .toEqual(['Choose a saved view…', 'Super-Fans by reach']);
    await page.getByRole('button', { name: 'Delete view “Super-Fans by reach”' }).click();
    await expect.poll(() => page.getByLabel('Saved views', { exact: true }).locator('option').allInnerTexts()).toEqual(['No saved views yet']);
    expect(page.jsErrors).toEqual([]);
    await page.close();
  });
});
