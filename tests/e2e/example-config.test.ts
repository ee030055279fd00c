import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { getCountries, getSubdivisions } from '../../src/shared/data/countries';
import { DEFAULT_MESSAGES } from '../../src/shared/messages';
import { PLATFORM_LABELS } from '../../src/shared/platforms';
import { expectConsoleError } from '../support/console-errors';
import { currentStep, passExampleAgeScreen, pick } from './flows';
import { failedLoad, startCollector, useServerAndBrowser, writeConfig, type Collector } from './support';

const EXAMPLE = 'config/examples/createurs-fr.json';
const SIGN_UP_URL = 'https://createurs.crazyaaronsputty.example/inscription';

let collector: Collector;

const e2e = useServerAndBrowser(async () => {
  collector = await startCollector();
  const raw = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown>;
  raw.analytics = { token: 'fr-token', host: collector.origin };
  return { WIZARD_CONFIG: writeConfig(raw, 'createurs-fr.json') };
});
afterAll(async () => {
  await collector?.close();
});

/** Every English default message that shows up in the page's text, placeholders or accessible names. */
async function englishLeft(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    const parts = [document.body.innerText];
    for (const element of document.querySelectorAll('[placeholder], [aria-label]')) {
      parts.push(element.getAttribute('placeholder') ?? '', element.getAttribute('aria-label') ?? '');
    }
    return parts.join('\n');
  });
  const english = Object.values(DEFAULT_MESSAGES)
    .map((message) => message.replace(/\{\w+\}/g, '').trim())
    .filter((message) => message.length > 3);
  // Whole words only: 'Continue' is not left in 'Continuer'.
  const escape = (message: string) => message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return english.filter((message) => new RegExp(`(?<!\\p{L})${escape(message)}(?!\\p{L})`, 'u').test(text));
}

const words = (text: string) => text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];

/**
 * Words that are English and not French: every word of the wizard's English texts (messages, platform
 * names, state and province names, country names) that no French text of the page uses too. "Texas",
 * "Ontario" or "Instagram" are French as well and stay allowed; "California", "Website" do not.
 */
function englishOnlyWords(): Set<string> {
  const raw = readFileSync(EXAMPLE, 'utf8');
  const french = JSON.parse(raw) as { subdivisionNames: Record<string, string> };
  const subdivisions = ['US', 'CA'].flatMap((country) =>
    getSubdivisions(country)!.map((subdivision) => ({ code: `${country}-${subdivision.code}`, name: subdivision.name })),
  );
  // The page's own texts: string values, not its keys, identifiers ("website") or addresses.
  const texts: string[] = [];
  JSON.parse(raw, (_key, value: unknown) => {
    if (typeof value === 'string' && !/^[a-z][\w.-]*$|^\/|:\/\//.test(value)) texts.push(value);
    return value;
  });
  const frenchWords = new Set([
    ...texts.flatMap(words),
    // Brands keep their names in every language; the website does not.
    ...Object.entries(PLATFORM_LABELS).flatMap(([name, label]) => (name === 'website' ? [] : words(label))),
    ...getCountries('fr').flatMap((country) => words(country.name)),
    ...subdivisions.flatMap(({ code, name }) => words(french.subdivisionNames[code] ?? name)),
  ]);
  const english = [
    ...Object.values(DEFAULT_MESSAGES),
    ...Object.values(PLATFORM_LABELS),
    ...subdivisions.map(({ name }) => name),
    ...getCountries('en').map((country) => country.name),
  ].flatMap((text) => words(text.replace(/\{\w+\}/g, '')));
  return new Set(english.filter((word) => !frenchWords.has(word)));
}

/** Every word of the page's visible text nodes, placeholders and accessible names that is English only. */
async function englishWords(page: Page, englishOnly: Set<string>): Promise<string[]> {
  const text = await page.evaluate(() => {
    const parts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      // Shown, or said to screen readers (visually hidden texts are read too).
      if (parent && (parent.checkVisibility() || parent.closest('.visually-hidden'))) parts.push(node.textContent ?? '');
    }
    for (const element of document.querySelectorAll('[placeholder], [aria-label]')) {
      parts.push(element.getAttribute('placeholder') ?? '', element.getAttribute('aria-label') ?? '');
    }
    for (const input of document.querySelectorAll('input')) parts.push(input.value);
    return parts.join('\n');
  });
  return [...new Set(words(text).filter((word) => englishOnly.has(word)))];
}

describe('the French example configuration in Chromium (skipFinalStep, singleCoverImg, twelve platforms)', () => {
  it('walks all steps in French, validates platforms, submits at the last step and redirects', async () => {
    const page = await e2e.browser.newPage();
    await page.route(`${SIGN_UP_URL}**`, (route) => route.fulfill({ contentType: 'text/html', body: '<title>Inscription</title>' }));
    const puts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(request.url());
    });
    await page.goto(e2e.server.url);
    expect(await page.title()).toBe("Candidature créateurs Crazy Aaron's");
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.locator('.wizard').getAttribute('class')).toContain('gray-bg');
    expect(await page.locator('.logo-bar').getAttribute('class')).toContain('centered');
    expect(await page.locator('.wizard-footer').getAttribute('class')).toContain('centered');
    expect(await page.getByRole('navigation', { name: 'Étapes' }).isVisible()).toBe(true);
    const cover = await page.locator('.cover img').getAttribute('src');
    expect(cover).toBe('/images/cover-2.svg');
    expect(await englishLeft(page)).toEqual([]);

    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => currentStep(page)).toBe('Vous');
    expect(await page.locator('.cover img').getAttribute('src')).toBe(cover);
    expect(await page.locator('.wizard').getAttribute('class')).not.toContain('gray-bg');
    const back = page.getByRole('button', { name: 'Retour' });
    expect(await back.getAttribute('style')).toContain('border-radius: 999px');

    // The neutral age screen, by country (requirements §20): month, year typed freely, country; nothing pre-filled.
    await page.locator('.age-screen').waitFor();
    expect(await page.getByRole('heading', { name: 'Votre date de naissance' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Année', { exact: true }).inputValue()).toBe('');
    expect(await page.getByRole('combobox', { name: 'Mois' }).inputValue()).toBe('');
    expect(await page.locator('.age-screen').innerText()).not.toMatch(/\d/);
    expect(await englishLeft(page)).toEqual([]);
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => page.getByText('Ce champ est obligatoire').count()).toBe(3);
    await page.getByLabel('Année', { exact: true }).fill('2999');
    await pick(page, 'Mois', 'janv', 'janvier');
    await pick(page, 'Pays où vous vivez', 'fran', 'France');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => page.getByText("Ce mois n'est pas encore arrivé").isVisible()).toBe(true);
    await page.getByLabel('Année', { exact: true }).fill('1990');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.locator('.age-screen').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toMatch(/^H\d$/);

    // The country the screen was answered with is where the country field starts, and the calling code with it.
    await expect.poll(() => page.getByRole('combobox', { name: 'Pays', exact: true }).inputValue()).toBe('France');
    await expect.poll(() => page.getByRole('combobox', { name: 'Indicatif' }).inputValue()).toBe('+33');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => page.getByText('Ce champ est obligatoire').count()).toBe(5);
    expect(await englishLeft(page)).toEqual([]);
    await page.getByLabel('Prénom', { exact: true }).fill('Camille');
    await page.getByLabel('Nom', { exact: true }).fill('Durand');
    await page.getByLabel('E-mail', { exact: true }).fill('camille@example.fr');
    await pick(page, 'Pays', 'allem', 'Allemagne');
    await pick(page, 'Pays', 'fran', 'France');
    expect(await page.getByRole('combobox', { name: 'État / Province' }).count()).toBe(0);
    await page.getByLabel('Ville', { exact: true }).fill('Lyon');
    await page.getByLabel('Code postal', { exact: true }).fill('69OO1');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => page.getByText('Saisissez un code postal valide').isVisible()).toBe(true);
    await page.getByLabel('Code postal', { exact: true }).fill('69001');
    // The phone is optional here: a number alone needs its calling code and vice versa; empty is fine.
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => currentStep(page)).toBe('Réseaux');

    // All twelve platforms; two of them required.
    for (const name of ['Instagram', 'TikTok', 'YouTube', 'Facebook', 'Twitter', 'Twitch', 'Pinterest', 'LinkedIn', 'Snapchat', 'Threads', 'Reddit']) {
      expect(await page.getByLabel(`Pseudo ${name}`, { exact: true }).count()).toBe(1);
      expect(await page.getByLabel(`Abonnés ${name}`, { exact: true }).count()).toBe(1);
    }
    expect(await page.getByLabel('Adresse du site', { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Visites mensuelles du site', { exact: true }).count()).toBe(1);
    await page.getByLabel('Pseudo YouTube', { exact: true }).fill('@camille');
    await page.getByLabel('Abonnés YouTube', { exact: true }).fill('4000');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => page.getByText('Renseignez tous les réseaux obligatoires').isVisible()).toBe(true);
    await page.getByLabel('Pseudo Instagram', { exact: true }).fill('camille.cree');
    await page.getByLabel('Abonnés Instagram', { exact: true }).fill('15000');
    await page.getByLabel('Pseudo TikTok', { exact: true }).fill('@camille');
    await page.getByLabel('Abonnés TikTok', { exact: true }).fill('820');
    await page.getByLabel('Adresse du site', { exact: true }).fill('pas une adresse');
    await page.getByLabel('Visites mensuelles du site', { exact: true }).fill('1200');
    await page.getByLabel('Pseudo LinkedIn', { exact: true }).fill('camille-durand');
    await page.getByLabel('Abonnés LinkedIn', { exact: true }).fill('300');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => page.getByText("Saisissez l'adresse de votre site").isVisible()).toBe(true);
    await page.getByLabel('Adresse du site', { exact: true }).fill('https://camille.example');
    // skipFinalStep: the second-to-last step validates and advances without sending anything.
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => currentStep(page)).toBe('Projet');
    expect(puts).toEqual([]);

    // A multi-select limited to two: a third pick is ignored, deselecting still works.
    const products = page.getByRole('combobox', { name: /produits/ });
    await products.click();
    const picked = () => page.getByRole('option', { selected: true }).allTextContents();
    // The box and its open list stay where they are as picks add chips (below the box, under the
    // list): a tap aimed at the next option lands on it.
    const listTop = async () => (await page.getByRole('option', { name: 'Slime Charmers' }).boundingBox())?.y;
    const before = await listTop();
    await page.getByRole('option', { name: 'Thinking Putty' }).click();
    await expect.poll(picked).toEqual(['Thinking Putty']);
    expect(await page.getByRole('list', { name: 'Sélection' }).getByText('Thinking Putty').count()).toBe(1);
    expect(await listTop()).toBe(before);
    await page.getByRole('option', { name: 'Slime Charmers' }).click();
    // A third cannot be picked, and says so.
    await expect.poll(() => page.getByRole('option', { name: 'Land of Dough' }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('option', { name: 'Land of Dough' }).click({ force: true });
    await expect.poll(picked).toEqual(['Thinking Putty', 'Slime Charmers']);
    await page.getByRole('option', { name: 'Slime Charmers' }).click();
    // The deselection shown first: on a loaded machine the next click could land before it.
    await expect.poll(picked).toEqual(['Thinking Putty']);
    // A click that lands while the list re-renders on a loaded machine is pressed again, only while
    // the pick has not shown after 3 s (a slow pick is never undone by a second press).
    for (let press = 0; press < 3 && !(await picked()).includes('Land of Dough'); press++) {
      await page.getByRole('option', { name: 'Land of Dough' }).click();
      await expect
        .poll(picked, { timeout: 3_000 })
        .toContain('Land of Dough')
        .catch(() => undefined);
    }
    await expect.poll(picked).toEqual(['Thinking Putty', 'Land of Dough']);
    await page.keyboard.press('Escape');
    await page.getByLabel(/campagne de vos rêves/).fill('Une série de vidéos en pâte à modeler');

    // The last step validates first: the agreement is required.
    const submit = page.getByRole('button', { name: 'Envoyer ma candidature' });
    await submit.click();
    await expect.poll(() => page.getByRole('checkbox', { name: /me contacte/ }).getAttribute('aria-invalid')).toBe('true');
    // The ad-disclosure rules are a consent the page requires; the newsletter's is optional.
    expect(await page.getByRole('checkbox', { name: /contenu sponsorisé/ }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('checkbox', { name: /prochaines campagnes/ }).getAttribute('aria-invalid')).toBeNull();
    expect(puts).toEqual([]);
    await page.getByRole('checkbox', { name: /me contacte/ }).check();
    await page.getByRole('checkbox', { name: /contenu sponsorisé/ }).check();
    expect(await page.getByRole('link', { name: 'politique de confidentialité' }).getAttribute('target')).toBe('_blank');

    // A failed submit shows the configured error text and keeps everything.
    expectConsoleError(failedLoad('net::ERR_CONNECTION_REFUSED', '/api/syncPage/createurs-fr'));
    await e2e.server.halt();
    await submit.click();
    await expect.poll(() => page.getByText(/Oups\s!\sL'envoi n'a pas abouti\./).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await currentStep(page)).toBe('Projet');
    expect(await englishLeft(page)).toEqual([]);

    await e2e.server.restart();
    const requestPromise = page.waitForRequest((request) => request.method() === 'PUT');
    await submit.click();
    const request = await requestPromise;
    expect(request.url()).toBe(`${e2e.server.url}/api/syncPage/createurs-fr`);
    expect(request.postDataJSON()).toEqual({
      personalInfo: {
        firstName: 'Camille',
        lastName: 'Durand',
        emailAddress: 'camille@example.fr',
        countryCode: 'FR',
        city: 'Lyon',
        zip: '69001',
      },
      platforms: {
        instagram: { handle: 'camille.cree', followers: '15000' },
        youtube: { handle: '@camille', followers: '4000' },
        tiktok: { handle: '@camille', followers: '820' },
        website: { url: 'https://camille.example', monthlyTraffic: '1200' },
      },
      fields: {
        whichProducts: 'Thinking Putty, Land of Dough',
        dreamCampaign: 'Une série de vidéos en pâte à modeler',
        'single.linkedin.handle': 'camille-durand',
        'single.linkedin.followers': '300',
      },
      consents: { adDisclosure: true, newsletter: false },
      age: { birthMonth: '1990-01', countryCode: 'FR' },
    });
    await page.waitForURL(SIGN_UP_URL);
    expect(JSON.parse(e2e.server.rows().at(-1)!.payload)).toEqual(request.postDataJSON());
    // Validate, submit, track, redirect (requirements §4): 'Form Submitted' went out before leaving.
    await expect.poll(() => collector.events().map((e) => e.event)).toContain('Form Submitted');
    expect(
      collector
        .events()
        .filter((e) => e.event === 'Step Reached')
        .map((e) => e.properties.Step),
    ).toEqual([1, 2, 3, 4]);
    await page.close();
  });

  it('Enter picks the first match as one types; the country sets the calling code, so a French number is taken as typed', async () => {
    const page = await e2e.browser.newPage();
    await page.goto(e2e.server.url);
    await page.getByRole('button', { name: 'Continuer' }).click();
    // The United Kingdom named on the age screen: the country field starts there, the calling code with it (+44).
    await passExampleAgeScreen(page, '1990', ['royaume', 'Royaume-Uni']);
    const country = page.getByRole('combobox', { name: 'Pays', exact: true });
    const callingCode = page.getByRole('combobox', { name: 'Indicatif' });
    const number = page.getByLabel('Numéro de téléphone', { exact: true });
    await expect.poll(() => callingCode.inputValue()).toBe('+44');
    // The number typed first, as the form asks it, then the country: the code follows (a French
    // number is not one of the United Kingdom's), the number stays.
    await number.fill('06 12 34 56 78');
    // A click in the box that shows the choice selects it: what is typed replaces it, as after Tab.
    await country.click();
    await country.pressSequentially('France');
    // The best match is highlighted as one types (aria-activedescendant), and Enter picks it.
    await expect.poll(() => page.locator('[role="option"].highlighted').textContent()).toBe('France');
    await page.keyboard.press('Enter');
    await expect.poll(() => country.inputValue()).toBe('France');
    await expect.poll(() => callingCode.inputValue()).toBe('+33');
    expect(await page.locator('#personalInfo-phone-calling-code-selected').textContent()).toBe('+33 France');
    await page.getByLabel('Prénom', { exact: true }).fill('Camille');
    await page.getByLabel('Nom', { exact: true }).fill('Durand');
    await page.getByLabel('E-mail', { exact: true }).fill('camille@example.fr');
    await page.getByLabel('Ville', { exact: true }).fill('Lyon');
    await page.getByLabel('Code postal', { exact: true }).fill('69001');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => currentStep(page)).toBe('Réseaux');
    await page.getByRole('button', { name: 'Retour' }).click();
    await expect.poll(() => currentStep(page)).toBe('Vous');
    // A code chosen by hand is the applicant's: another country leaves it while a number is there.
    for (const typed of ['+44', '44']) {
      await callingCode.click();
      await callingCode.fill(typed);
      await page.keyboard.press('Enter');
      await expect.poll(() => callingCode.inputValue()).toBe('+44');
      await expect.poll(() => page.locator('#personalInfo-phone-calling-code-selected').textContent()).toBe('+44 Royaume-Uni');
      await callingCode.click();
      await callingCode.fill('33');
      await page.keyboard.press('Enter');
      await expect.poll(() => callingCode.inputValue()).toBe('+33');
    }
    await callingCode.click();
    await callingCode.fill('+44');
    await page.keyboard.press('Enter');
    await expect.poll(() => country.inputValue()).toBe('Royaume-Uni');
    await country.click();
    await country.fill('allem');
    await page.keyboard.press('Enter');
    await expect.poll(() => country.inputValue()).toBe('Allemagne');
    expect(await callingCode.inputValue()).toBe('+44');
    // With the number cleared, the country leads again; its code alone asks for no number.
    await number.fill('');
    await country.click();
    await country.fill('belg');
    await page.keyboard.press('Enter');
    await expect.poll(() => callingCode.inputValue()).toBe('+32');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => currentStep(page)).toBe('Réseaux');

    // Errors that are true: the required platforms filled in, one with a wrong count, say only that.
    await page.getByLabel('Pseudo Instagram', { exact: true }).fill('camille.cree');
    await page.getByLabel('Abonnés Instagram', { exact: true }).fill('15 mille');
    await page.getByLabel('Pseudo TikTok', { exact: true }).fill('@camille');
    await page.getByLabel('Abonnés TikTok', { exact: true }).fill('820');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => page.getByText('Saisissez un nombre valide').isVisible()).toBe(true);
    expect(await page.getByText('Renseignez tous les réseaux obligatoires').count()).toBe(0);
    await page.close();
  });

  it('shows no English word on any step, in any list: state and province names, platform names, the calling code', async () => {
    const englishOnly = englishOnlyWords();
    // The test can fail: the words it looks for are there to find.
    for (const word of ['california', 'website', 'united', 'states', 'germany', 'required']) expect(englishOnly, word).toContain(word);
    const page = await e2e.browser.newPage();
    await page.goto(e2e.server.url);
    expect(await englishWords(page, englishOnly)).toEqual([]);
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => currentStep(page)).toBe('Vous');
    // The age screen, its month list open, then answered.
    await page.locator('.age-screen').waitFor();
    await page.getByRole('combobox', { name: 'Mois' }).click();
    await expect.poll(() => page.getByRole('option').allTextContents()).toContain('décembre');
    expect(await englishWords(page, englishOnly)).toEqual([]);
    await page.keyboard.press('Escape');
    await passExampleAgeScreen(page);
    expect(await englishWords(page, englishOnly)).toEqual([]);
    // The calling codes' list, open.
    await page.getByRole('combobox', { name: 'Indicatif' }).click();
    await expect.poll(() => page.getByRole('option').count()).toBeGreaterThan(3);
    expect(await englishWords(page, englishOnly)).toEqual([]);
    await page.keyboard.press('Escape');
    // The states of the United States, in French and sorted by their French names.
    await pick(page, 'Pays', 'unis', 'États-Unis');
    const province = page.getByRole('combobox', { name: 'État / Province' });
    await province.click();
    await expect.poll(() => page.getByRole('option').count()).toBeGreaterThan(3);
    expect(await englishWords(page, englishOnly)).toEqual([]);
    await province.fill('caro');
    await expect.poll(() => page.getByRole('option').allTextContents()).toEqual(['Caroline du Nord', 'Caroline du Sud']);
    await page.getByRole('option', { name: 'Caroline du Nord' }).click();
    expect(await province.inputValue()).toBe('Caroline du Nord');
    // The errors of the step, in French too.
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => page.getByText('Ce champ est obligatoire').count()).toBeGreaterThan(0);
    expect(await englishWords(page, englishOnly)).toEqual([]);
    await page.getByLabel('Prénom', { exact: true }).fill('Camille');
    await page.getByLabel('Nom', { exact: true }).fill('Durand');
    await page.getByLabel('E-mail', { exact: true }).fill('camille@example.fr');
    await page.getByLabel('Ville', { exact: true }).fill('Charlotte');
    await page.getByLabel('Code postal', { exact: true }).fill('28202');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => currentStep(page)).toBe('Réseaux');
    expect(await englishWords(page, englishOnly)).toEqual([]);
    await expect.poll(() => page.locator('.platform-name').allTextContents()).toContain('Site web');
    await page.close();
  });
});
