import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectConsoleError } from '../support/console-errors';
import { currentStep, fillDefaultApplication, fillDefaultStep, pick } from './flows';
import { failedLoad, useServerAndBrowser } from './support';

const SIGN_UP_URL = 'https://creators.crazyaaronsputty.example/sign-up';

const e2e = useServerAndBrowser();

async function openWizard(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await e2e.browser.newPage({ viewport });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('Failed to load resource')) errors.push(message.text());
  });
  // The provider's creator sign-up page is outside this machine: answer for it.
  await page.route(`${SIGN_UP_URL}**`, (route) => route.fulfill({ contentType: 'text/html', body: '<title>Creator sign-up</title><h1>Sign up</h1>' }));
  await page.goto(e2e.server.url);
  Object.assign(page, { jsErrors: errors, requests });
  return page;
}

describe('the applicant flow in Chromium (requirements §2, §4, §5, §7)', () => {
  it('walks all four steps as a new user, stores the application and hands off to signUpUrl', async () => {
    const page = await openWizard();
    await expect.poll(() => page.title()).toBe("Crazy Aaron's Creator Application");
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    await expect.poll(() => currentStep(page)).toBe('Welcome');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe("Become a Crazy Aaron's creator");
    await expect.poll(() => page.getByRole('button', { name: 'Back' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('link', { name: 'Privacy Policy' }).getAttribute('target')).toBe('_blank');
    const coverStep0 = await page.locator('.cover img').getAttribute('src');

    // Step 0 advances with no validation.
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    expect(await page.locator('.cover img').getAttribute('src')).not.toBe(coverStep0);

    // A middle step with empty controls: every control marked, no advance.
    await page.getByRole('button', { name: 'Continue' }).click();
    const firstName = page.getByLabel('First name', { exact: true });
    await expect.poll(() => firstName.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await firstName.getAttribute('aria-describedby');
    await expect.poll(() => page.locator(`#${describedBy}`).textContent()).toBe('This field is required');
    await expect.poll(() => page.locator(`#${describedBy}`).getAttribute('role')).toBe('alert');
    await expect.poll(() => page.getByText('Fill at least one platform').isVisible()).toBe(true);
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    // Focus goes to the first invalid control.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('personalInfo-firstName');

    await firstName.fill('Ada');
    await page.getByLabel('Last name', { exact: true }).fill('Lovelace');
    await page.getByLabel('Email', { exact: true }).fill('ada@');
    await page.getByLabel('Email', { exact: true }).blur();
    await expect.poll(() => page.getByText('Enter a valid email address').isVisible()).toBe(true);
    await page.getByLabel('Email', { exact: true }).fill('ada@example.com');

    // Calling code: 1 first and by default; picking one sets the country too. The box shows the
    // flag and the code; its description, the list and search have the country's name.
    const callingCode = page.getByRole('combobox', { name: 'Country code', exact: true });
    /** The box's code and the name it is described by. */
    const shownCallingCode = async () => [
      await callingCode.inputValue(),
      await callingCode.evaluate((input) =>
        (input.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      ),
    ];
    await expect.poll(shownCallingCode).toEqual(['+1', '+1 United States']);
    await callingCode.click();
    await expect.poll(() => page.getByRole('option').first().textContent()).toBe('+1 United States');
    await callingCode.fill('kingdom');
    await page.getByRole('option', { name: '+44 United Kingdom', exact: true }).click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Country', exact: true }).inputValue()).toBe('United Kingdom');
    await expect.poll(() => page.getByRole('combobox', { name: 'State / Province' }).count()).toBe(0);
    // A pasted international number sets the calling code and keeps the national number.
    await page.getByLabel('Phone number', { exact: true }).fill('0033 6 12 34 56 78');
    await expect.poll(shownCallingCode).toEqual(['+33', '+33 France']);
    await expect.poll(() => page.getByLabel('Phone number', { exact: true }).inputValue()).toBe('612345678');
    // …and the box shows the number's own country among those that share its code.
    await page.getByLabel('Phone number', { exact: true }).fill('+1 416 555 0123');
    await expect.poll(shownCallingCode).toEqual(['+1', '+1 Canada']);
    expect(await page.locator('.phone-calling-code .select-adornment img').getAttribute('src')).toMatch(/\/ca\.svg$/);
    await expect.poll(() => page.getByLabel('Phone number', { exact: true }).inputValue()).toBe('4165550123');
    await callingCode.click();
    await callingCode.fill('kingdom');
    await page.getByRole('option', { name: '+44 United Kingdom', exact: true }).click();
    await expect.poll(shownCallingCode).toEqual(['+44', '+44 United Kingdom']);
    await page.getByLabel('Phone number', { exact: true }).fill('7400 123456');
    await expect.poll(() => page.getByLabel('Phone number', { exact: true }).inputValue()).toBe('7400123456');

    // US → states (with territories and armed forces), CA → provinces.
    await pick(page, 'Country', 'united st', 'United States');
    const state = page.getByRole('combobox', { name: 'State / Province' });
    await state.click();
    await state.fill('armed forces p');
    await expect.poll(() => page.getByRole('option').allTextContents()).toEqual(['Armed Forces Pacific']);
    await state.fill('york');
    await page.getByRole('option', { name: 'New York', exact: true }).click();
    await expect.poll(() => state.inputValue()).toBe('New York');
    await pick(page, 'Country', 'canada', 'Canada');
    await expect.poll(() => state.inputValue()).toBe('');
    await state.click();
    await expect.poll(() => page.getByRole('option').count()).toBe(13);
    await state.fill('ont');
    await page.getByRole('option', { name: 'Ontario', exact: true }).click();

    // Platforms: handle not a URL, followers digits only.
    await page.getByLabel('Instagram handle').fill('https://instagram.com/ada.makes');
    await page.getByLabel('Instagram followers').fill('12k');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByText('Enter your username only').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Enter a valid number').isVisible()).toBe(true);
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    // The user name in the pasted address, one press away; followers as copied from a profile.
    await page.getByRole('button', { name: 'Use ada.makes' }).click();
    await expect.poll(() => page.getByLabel('Instagram handle').inputValue()).toBe('ada.makes');
    await expect.poll(() => page.getByRole('button', { name: 'Use ada.makes' }).count()).toBe(0);
    await page.getByLabel('Instagram followers').fill('12,000');
    await page.getByLabel('TikTok handle').fill('@adamakes ');
    await page.getByLabel('TikTok followers').fill('530');
    await expect.poll(() => page.getByLabel('YouTube handle').getAttribute('placeholder')).toBe('@yourHandle');
    await expect.poll(() => page.getByLabel('Instagram handle').getAttribute('placeholder')).toBe('yourHandle');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('More Details');

    // Back keeps the answers.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => currentStep(page)).toBe('Introduce Yourself');
    await expect.poll(() => page.getByLabel('First name', { exact: true }).inputValue()).toBe('Ada');
    await expect.poll(() => page.getByRole('combobox', { name: 'State / Province' }).inputValue()).toBe('Ontario');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('More Details');

    // Details: required answers first.
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => page.getByText('This field is required').count()).toBe(3);
    await pick(page, /familiar/, 'super', 'Super-Fan');
    await pick(page, /often/, 'most', 'Most days');

    // Multi-select: case-insensitive search, 'No results found', stays open.
    const products = page.getByRole('combobox', { name: /products/ });
    await products.click();
    await products.fill('PUTTY');
    await expect.poll(() => page.getByRole('option').allTextContents()).toEqual(['Thinking Putty']);
    await products.fill('zzz');
    await expect.poll(() => page.getByText('No results found').isVisible()).toBe(true);
    await products.fill('');
    await page.getByRole('option', { name: 'Thinking Putty' }).click();
    await page.getByRole('option', { name: 'Land of Dough' }).click();
    await expect.poll(() => page.getByRole('listbox').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('option', { name: 'Land of Dough' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('button', { name: 'Remove Land of Dough' }).isVisible()).toBe(true);

    // Yes/no panel: the brands box appears on Yes and is then required.
    const yes = page.getByRole('radiogroup', { name: /influencer campaign/ }).getByRole('radio', { name: 'Yes' });
    await expect.poll(() => page.getByLabel(/brands/).count()).toBe(0);
    await yes.check();
    await page.getByLabel(/dream campaign/).fill('A putty stop-motion series');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => page.getByLabel(/brands/).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('radio', { name: 'No' }).check();
    await expect.poll(() => page.getByLabel(/brands/).count()).toBe(0);
    await yes.check();
    await page.getByLabel(/brands/).fill('Brand A, Brand B');

    // Submit: the PUT body is requirements §15's, with the XSRF header and an idempotency key.
    const requestPromise = page.waitForRequest((request) => request.method() === 'PUT');
    await page.getByRole('button', { name: 'Submit application' }).click();
    const request = await requestPromise;
    const response = await request.response();
    expect(response?.status()).toBe(201);
    const cookies = await page.context().cookies();
    expect(request.headers()['x-xsrf-token']).toBe(cookies.find((c) => c.name === 'XSRF-TOKEN')?.value);
    expect(request.headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers()['content-type']).toBe('application/json');
    expect(request.url()).toBe(`${e2e.server.url}/api/syncPage/creators`);
    const sent: unknown = request.postDataJSON();
    expect(sent).toEqual({
      personalInfo: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        emailAddress: 'ada@example.com',
        phone: { countryCode: '44', subscriber: '7400123456' },
        countryCode: 'CA',
        provinceCode: 'ON',
      },
      platforms: { instagram: { handle: 'ada.makes', followers: '12000' }, tiktok: { handle: '@adamakes', followers: '530' } },
      fields: {
        howFamiliar: 'Super-Fan',
        howOften: 'Most days',
        whichProducts: 'Thinking Putty, Land of Dough',
        'campaign.value': 'Yes',
        'campaign.text': 'Brand A, Brand B',
        dreamCampaign: 'A putty stop-motion series',
      },
    });

    // The stored row equals what was sent.
    const rows = e2e.server.rows();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.payload)).toEqual(sent);
    expect(rows[0]).toMatchObject({ page_id: 'creators', email: 'ada@example.com', idempotency_key: request.headers()['idempotency-key'] });

    // Thank-you step: the e-mail entered, no Back, Sign In.
    await expect.poll(() => currentStep(page)).toBe('Creator Hub');
    await expect.poll(() => page.getByText('Thank you for your submission!').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('ada@example.com').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Back' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(SIGN_UP_URL);
    await expect.poll(() => page.title()).toBe('Creator sign-up');
    expect((page as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    // Without analytics.token and errorReporting.dsn their libraries are never fetched.
    const scripts = (page as Page & { requests: string[] }).requests.filter((url) => url.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => /\/assets\/(mixpanel|sentry)-/.test(url))).toEqual([]);
    await page.close();
  });

  it('a failed submit keeps the applicant on the step with every answer and the submit error; retrying succeeds', async () => {
    // The server is stopped under the wizard: its sends fail on the network.
    expectConsoleError(failedLoad('net::ERR_CONNECTION_REFUSED', '/api/syncPage/creators'));
    const page = await openWizard();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('First name', { exact: true }).fill('Grace');
    await page.getByLabel('Last name', { exact: true }).fill('Hopper');
    await page.getByLabel('Phone number', { exact: true }).fill('2025550199');
    await page.getByLabel('Email', { exact: true }).fill('grace@example.com');
    await pick(page, 'Country', 'germ', 'Germany');
    await page.getByLabel('YouTube handle').fill('@grace');
    await page.getByLabel('YouTube followers').fill('77');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('More Details');
    await pick(page, /familiar/, 'heard', "I've heard about it");
    await pick(page, /often/, 'rare', 'Rarely');
    await page.getByLabel(/dream campaign/).fill('Compilers made of putty');

    const before = e2e.server.rows().length;
    await e2e.server.halt();
    // The server is gone: the send fails on the network.
    const attempt = page.waitForRequest((request) => request.method() === 'PUT');
    await page.getByRole('button', { name: 'Submit application' }).click();
    const firstKey = (await attempt).headers()['idempotency-key'];
    expect(firstKey).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Something went wrong. Please, try again later.' }).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => currentStep(page)).toBe('More Details');
    await expect.poll(() => page.getByLabel(/dream campaign/).inputValue()).toBe('Compilers made of putty');
    await expect.poll(() => page.getByRole('combobox', { name: /often/ }).inputValue()).toBe('Rarely');

    // Back online: the same submit succeeds, with the key of the failed attempt.
    await e2e.server.restart();
    const retried = page.waitForRequest((request) => request.method() === 'PUT');
    await page.getByRole('button', { name: 'Submit application' }).click();
    expect((await retried).headers()['idempotency-key']).toBe(firstKey);
    await expect.poll(() => currentStep(page)).toBe('Creator Hub');
    const stored = e2e.server.rows();
    expect(stored).toHaveLength(before + 1);
    expect(JSON.parse(stored.at(-1)!.payload)).toMatchObject({
      personalInfo: { firstName: 'Grace', countryCode: 'DE' },
      platforms: { youtube: { handle: '@grace', followers: '77' } },
    });
    await page.close();
  });

  it('on a phone: the step in words, required questions marked from their rules, only true errors, the first invalid question shown whole', async () => {
    const page = await openWizard({ width: 375, height: 740 });
    // Below 576 px the step bar hides: the logo bar says where the applicant is.
    const position = page.locator('.logo-bar .step-position');
    await expect.poll(() => position.isVisible()).toBe(true);
    expect(await position.textContent()).toBe('Step 1 of 4');
    expect(await page.locator('.step-bar').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => position.textContent()).toBe('Step 2 of 4');

    // The mark comes from each question's rules: seen after the label, not read as part of it
    // (aria-required says it), and explained once on the step.
    const mark = (label: Locator) => label.evaluate((element) => getComputedStyle(element, '::after').content);
    const label = (text: string) => page.locator('.field-label', { hasText: new RegExp(`^${text}$`) });
    for (const text of ['First name', 'Last name', 'Phone number', 'Email', 'Country']) expect(await mark(label(text)), text).toMatch(/\*/);
    expect(await mark(page.locator('.platforms .section-title'))).toMatch(/\*/);
    expect(await page.locator('.step .required-note').textContent()).toBe('Fields marked * are required.');
    expect(await page.getByLabel('First name', { exact: true }).getAttribute('aria-required')).toBe('true');
    expect(await page.getByRole('combobox', { name: 'Country', exact: true }).getAttribute('aria-required')).toBe('true');

    // Continue from the foot of the step with nothing filled: the first invalid question comes
    // into view with its label, not cut at the window's top edge.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.getByRole('button', { name: 'Continue' }).click();
    const firstName = page.getByLabel('First name', { exact: true });
    await expect.poll(() => firstName.evaluate((input) => input === document.activeElement)).toBe(true);
    await expect.poll(() => label('First name').evaluate((element) => Math.round(element.getBoundingClientRect().top))).toBeGreaterThanOrEqual(0);

    // A platform filled in wrongly says only what is wrong with it, never "Fill at least one platform".
    await fillDefaultStep(page, 1);
    await page.getByLabel('Instagram handle').fill('https://www.instagram.com/kai.makes/');
    await page.getByLabel('Instagram followers').fill('12k');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByText('Enter a valid number').isVisible()).toBe(true);
    expect(await page.getByText('Enter your username only').isVisible()).toBe(true);
    expect(await page.getByText('Fill at least one platform').count()).toBe(0);
    await page.getByRole('button', { name: 'Use kai.makes' }).click();
    await page.getByLabel('Instagram followers').fill('12000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => currentStep(page)).toBe('More Details');
    expect(await position.textContent()).toBe('Step 3 of 4');
    // The survey's required questions are marked too; the optional ones are not.
    expect(await mark(page.locator('.field-label', { hasText: 'How familiar are you' }))).toMatch(/\*/);
    expect(await mark(page.locator('.field-label', { hasText: 'Which products are you interested in?' }))).toBe('none');
    // The step that sends the application says so.
    expect(await page.locator('.actions .button-primary').textContent()).toBe('Submit application');
    await page.close();
  });

  it('keeps the answers, the step and the Idempotency-Key across a reload; a replay stores nothing new', async () => {
    expectConsoleError(failedLoad('net::ERR_CONNECTION_REFUSED', '/api/syncPage/creators'));
    const page = await openWizard();
    await fillDefaultApplication(page, 'reload@example.com');
    await e2e.server.halt();
    const lost = page.waitForRequest((request) => request.method() === 'PUT');
    await page.getByRole('button', { name: 'Submit application' }).click();
    const key = (await lost).headers()['idempotency-key'];
    await expect.poll(() => page.getByText('Something went wrong. Please, try again later.').isVisible(), { timeout: 15_000 }).toBe(true);
    await e2e.server.restart();
    await page.reload();
    // The draft brings back the step and every answer.
    await expect.poll(() => currentStep(page)).toBe('More Details');
    expect(await page.getByLabel(/dream campaign/).inputValue()).toBe('Putty in space');
    expect(await page.getByRole('combobox', { name: /often/ }).inputValue()).toBe('Sometimes');
    const again = page.waitForRequest((request) => request.method() === 'PUT');
    await page.getByRole('button', { name: 'Submit application' }).click();
    expect((await again).headers()['idempotency-key']).toBe(key);
    expect((await again).postDataJSON()).toMatchObject({ personalInfo: { firstName: 'Kai', emailAddress: 'reload@example.com', countryCode: 'JP' } });
    await expect.poll(() => currentStep(page)).toBe('Creator Hub');
    const rows = e2e.server.rows().filter((row) => row.email === 'reload@example.com');
    expect(rows).toHaveLength(1);
    // The same key replayed (a double submit that raced the first answer) gets the first id back.
    const replay = await page.evaluate(
      async ([k, body, altcha]) => {
        const token = document.cookie
          .split('; ')
          .find((c) => c.startsWith('XSRF-TOKEN='))!
          .split('=')[1]!;
        const response = await fetch('/api/syncPage/creators', {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': token, 'Idempotency-Key': k!, Altcha: altcha! },
          body: body!,
        });
        return { status: response.status, id: ((await response.json()) as { id: string }).id };
      },
      // Its solved challenge too (docs/decisions/032): one solution, one application.
      [key, rows[0]!.payload, (await again).headers()['altcha']],
    );
    expect(replay).toEqual({ status: 200, id: rows[0]!.id });
    expect(e2e.server.rows().filter((row) => row.email === 'reload@example.com')).toHaveLength(1);
    await page.close();
  });
});
