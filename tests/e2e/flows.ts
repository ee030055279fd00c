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
