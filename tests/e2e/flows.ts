import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The label of the step marked `aria-current="step"`. */
export const currentStep = (page: Page) => page.locator('[aria-current="step"] .step-label').textContent();

/** Opens a searchable select, searches, and picks an option by its exact name. */
export async function pick(page: Page, combobox: string | RegExp, search: string, option: string) {
  const input = page.getByRole('combobox', { name: combobox, exact: typeof combobox === 'string' });
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Fills the default configuration's steps 1 and 2 with a valid application and
 * stops on step 2 (More Details) with everything answered.
 */
export async function fillDefaultApplication(page: Page, email = 'kai@example.com') {
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('First name', { exact: true }).fill('Kai');
  await page.getByLabel('Last name', { exact: true }).fill('Tanaka');
  await page.getByLabel('Phone number', { exact: true }).fill('2025550142');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await pick(page, 'Country', 'japan', 'Japan');
  await page.getByLabel('Instagram handle').fill('kai.makes');
  await page.getByLabel('Instagram followers').fill('900');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => currentStep(page)).toBe('More Details');
  await pick(page, /familiar/, 'very', 'Very familiar');
  await pick(page, /often/, 'some', 'Sometimes');
  await page.getByLabel(/dream campaign/).fill('Putty in space');
}

/**
 * Answers the French example's age screen (config/examples/createurs-fr.json: by country) as an
 * adult living in France, once it shows after the welcome step, and waits for the step it hid.
 */
export async function passExampleAgeScreen(page: Page, year = '1990', country: [search: string, name: string] = ['fran', 'France']) {
  await page.locator('.age-screen').waitFor();
  await pick(page, 'Mois', 'janv', 'janvier');
  await page.getByLabel('Année', { exact: true }).fill(year);
  await pick(page, 'Pays où vous vivez', ...country);
  await page.getByRole('button', { name: 'Continuer' }).click();
  await page.locator('.age-screen').waitFor({ state: 'detached' });
}

/** Fills the French example's step `index` with valid answers (config/examples/createurs-fr.json); on step 1, the age screen first. */
export async function fillExampleStep(page: Page, index: number) {
  if (index === 1) {
    await page.locator('.age-screen, .personal-info').first().waitFor();
    if ((await page.locator('.age-screen').count()) > 0) await passExampleAgeScreen(page);
    await page.getByLabel('Prénom', { exact: true }).fill('Camille');
    await page.getByLabel('Nom', { exact: true }).fill('Durand');
    await page.getByLabel('E-mail', { exact: true }).fill('camille@example.fr');
    // France, which the age screen's answer has put there already (requirements §20).
    if ((await page.getByRole('combobox', { name: 'Pays', exact: true }).inputValue()) !== 'France') await pick(page, 'Pays', 'fran', 'France');
    await page.getByLabel('Ville', { exact: true }).fill('Lyon');
    await page.getByLabel('Code postal', { exact: true }).fill('69001');
  } else if (index === 2) {
    await page.getByLabel('Pseudo Instagram', { exact: true }).fill('camille.cree');
    await page.getByLabel('Abonnés Instagram', { exact: true }).fill('15000');
    await page.getByLabel('Pseudo TikTok', { exact: true }).fill('@camille');
    await page.getByLabel('Abonnés TikTok', { exact: true }).fill('820');
  } else if (index === 3) {
    await pick(page, /produits/, 'putty', 'Thinking Putty');
    await page.keyboard.press('Escape');
    await page.getByLabel(/campagne de vos rêves/).fill('Une série de vidéos');
    await page.getByRole('checkbox', { name: /me contacte/ }).check();
    // The ad-disclosure rules: a consent the page requires (requirements §21).
    await page.getByRole('checkbox', { name: /contenu sponsorisé/ }).check();
  }
}

/** Fills the default configuration's step `index` with valid answers. */
export async function fillDefaultStep(page: Page, index: number) {
  if (index === 1) {
    await page.getByLabel('First name', { exact: true }).fill('Kai');
    await page.getByLabel('Last name', { exact: true }).fill('Tanaka');
    await page.getByLabel('Phone number', { exact: true }).fill('2025550142');
    await page.getByLabel('Email', { exact: true }).fill('kai@example.com');
    await pick(page, 'Country', 'japan', 'Japan');
    await page.getByLabel('Instagram handle').fill('kai.makes');
    await page.getByLabel('Instagram followers').fill('900');
  } else if (index === 2) {
    await pick(page, /familiar/, 'very', 'Very familiar');
    await pick(page, /often/, 'some', 'Sometimes');
    await page.getByRole('radio', { name: 'Yes' }).check();
    await page.getByLabel(/brands/).fill('Brand A');
    await page.getByLabel(/dream campaign/).fill('Putty in space');
  }
}
