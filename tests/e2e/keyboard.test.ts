import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { currentStep } from './flows';
import { useServerAndBrowser } from './support';

// The whole application with the keyboard alone — Tab, arrows,
// Enter, Space, Escape; no mouse.

const e2e = useServerAndBrowser();

const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const labelledBy = element?.getAttribute('aria-labelledby');
    const label =
      element?.getAttribute('aria-label') ??
      (labelledBy ? document.getElementById(labelledBy)?.textContent : null) ??
      (element?.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null) ??
      element?.textContent;
    return `${element?.tagName.toLowerCase()}:${(label ?? '').trim()}`;
  });

/** Presses Tab until the focused element's description matches, at most `max` times. */
async function tabTo(page: Page, pattern: RegExp, max = 12) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (pattern.test(await focused(page))) return;
  }
  throw new Error(`Tab never reached ${pattern}; last focus ${await focused(page)}`);
}

/** Types a search in the focused select and picks its best match, highlighted as one types, with Enter. */
async function choose(page: Page, search: string) {
  await page.keyboard.type(search);
  await page.keyboard.press('Enter');
}

it('completes the default application with the keyboard alone', async () => {
  const page = await e2e.browser.newPage();
  await page.route('https://creators.crazyaaronsputty.example/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Sign up</title>' }));
  await page.goto(e2e.server.url);

  await tabTo(page, /^button:Continue$/);
  await page.keyboard.press('Enter');
  await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
  // Focus moved to the new step's heading.
  expect(await focused(page)).toBe('h1:Introduce yourself');

  // A failed Continue moves focus to the first invalid control.
  await tabTo(page, /^button:Continue$/, 30);
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page)).toBe('input:First name');

  await page.keyboard.type('Kai');
  await tabTo(page, /Last name/);
  await page.keyboard.type('Tanaka');
  await tabTo(page, /Country code/);
  await tabTo(page, /Phone number/);
  await page.keyboard.type('2025550142');
  await tabTo(page, /^input:Email$/);
  await page.keyboard.type('kai@example.com');
  await tabTo(page, /^input:Country$/);
  await choose(page, 'canada');
  expect(await page.getByRole('combobox', { name: 'Country', exact: true }).inputValue()).toBe('Canada');
  await tabTo(page, /State \/ Province/);
  await choose(page, 'ontario');
  await tabTo(page, /Instagram handle/);
  await page.keyboard.type('kai.makes');
  await tabTo(page, /Instagram followers/);
  await page.keyboard.type('900');
  // Enter in a text field sends the step.
  await page.keyboard.press('Enter');
  await expect.poll(() => currentStep(page)).toBe('More Details');
  expect(await focused(page)).toBe('h1:More details');

  await tabTo(page, /familiar/);
  await choose(page, 'super');
  await tabTo(page, /often/);
  await choose(page, 'most');
  await tabTo(page, /products/);
  await choose(page, 'dough');
  await page.keyboard.press('Escape');
  expect(await page.getByRole('listbox', { name: /products/ }).isVisible()).toBe(false);
  await tabTo(page, /^input:Yes$/);
  await page.keyboard.press('Space');
  await tabTo(page, /brands/);
  await page.keyboard.type('Brand A');
  await tabTo(page, /dream campaign/);
  await page.keyboard.type('Putty on the moon');
  await tabTo(page, /^button:Submit application$/);
  await page.keyboard.press('Enter');
  await expect.poll(() => currentStep(page)).toBe('Creator Hub');
  const stored = JSON.parse(e2e.server.rows().at(-1)!.payload) as { fields: Record<string, string>; personalInfo: Record<string, string> };
  expect(stored.fields).toMatchObject({ howFamiliar: 'Super-Fan', howOften: 'Most days', whichProducts: 'Land of Dough', 'campaign.value': 'Yes' });
  expect(stored.personalInfo).toMatchObject({ countryCode: 'CA', provinceCode: 'ON' });

  await tabTo(page, /^button:Sign In$/, 20);
  await page.keyboard.press('Enter');
  await page.waitForURL('https://creators.crazyaaronsputty.example/sign-up');
  await page.close();
});

/** What `aria-activedescendant` of the focused combobox names: the option's text, position, and whether it is in the list's view. */
const activeOption = (page: Page) =>
  page.evaluate(() => {
    const input = document.activeElement as HTMLElement;
    const id = input.getAttribute('aria-activedescendant');
    const option = id ? document.getElementById(id) : null;
    const menu = document.getElementById(input.getAttribute('aria-controls') ?? '');
    if (!option || !menu) return { id, rendered: false as const };
    const box = option.getBoundingClientRect();
    const view = menu.getBoundingClientRect();
    return {
      id,
      rendered: true as const,
      role: option.getAttribute('role'),
      name: option.textContent?.trim(),
      position: `${option.getAttribute('aria-posinset')}/${option.getAttribute('aria-setsize')}`,
      inView: box.top >= view.top - 1 && box.bottom <= view.bottom + 1,
      renderedOptions: menu.querySelectorAll('[role="option"]').length,
    };
  });

it('walks all 250 countries with the arrow keys to the last one; the active option is always rendered and in view', async () => {
  const page = await e2e.browser.newPage({ viewport: { width: 375, height: 800 } });
  await page.goto(e2e.server.url);
  await page.getByRole('button', { name: 'Continue' }).click();
  const country = page.getByRole('combobox', { name: 'Country', exact: true });
  await country.focus();
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => country.getAttribute('aria-expanded')).toBe('true');
  const first = await activeOption(page);
  expect(first).toMatchObject({ rendered: true, role: 'option', name: 'United States', inView: true });
  const total = Number(first.rendered && first.position.split('/')[1]);
  expect(total).toBeGreaterThanOrEqual(240);
  // A windowed list: far fewer options in the DOM than in the list.
  expect(first.rendered && first.renderedOptions).toBeLessThan(40);

  const seen = new Set<string>();
  for (let index = 2; index <= total; index++) {
    await page.keyboard.press('ArrowDown');
    const active = await activeOption(page);
    if (!active.rendered || !active.inView || active.position !== `${index}/${total}`) {
      throw new Error(`ArrowDown to option ${index}: ${JSON.stringify(active)}`);
    }
    seen.add(active.name!);
  }
  expect(seen.size).toBe(total - 1);
  expect(await activeOption(page)).toMatchObject({ name: 'Zimbabwe', position: `${total}/${total}`, inView: true });

  await page.keyboard.press('Home');
  expect(await activeOption(page)).toMatchObject({ position: `1/${total}`, inView: true });
  await page.keyboard.press('PageDown');
  expect(await activeOption(page)).toMatchObject({ position: `11/${total}`, inView: true });
  await page.keyboard.press('End');
  expect(await activeOption(page)).toMatchObject({ position: `${total}/${total}`, inView: true });
  await page.keyboard.press('PageUp');
  expect(await activeOption(page)).toMatchObject({ position: `${total - 10}/${total}`, inView: true });
  await page.keyboard.press('Enter');
  const picked = await country.inputValue();
  expect(picked).not.toBe('');

  // Reopened, the list shows the picked option, highlighted and in view.
  await page.keyboard.press('ArrowDown');
  expect(await activeOption(page)).toMatchObject({ name: expect.stringContaining(picked), position: `${total - 10}/${total}`, inView: true });
  // Typing filters the long list.
  await country.fill('land');
  const names = await page.getByRole('option').allTextContents();
  expect(names.length).toBeGreaterThan(5);
  for (const name of names) expect(name.toLowerCase()).toContain('land');
  await page.close();
});
