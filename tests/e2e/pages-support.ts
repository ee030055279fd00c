import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// Helpers of the builder's browser tests: pages-builder.test.ts (by mouse) and
// pages-journey.test.ts (by keyboard, from the builder to the inbox).

/** The editor's status line: "Saving…", "Saved at 14:02", "Not saved: …". */
export const saveState = (page: Page) => page.locator('.save-state').textContent();

/** The card of step `step` (1-based) in the Steps tab. */
export const stepCard = (page: Page, step: number) => page.locator('.step-card').nth(step - 1);

/** The headings of the blocks of step `step` (1-based), in order. */
export const blockHeadings = (page: Page, step: number) => stepCard(page, step).locator('.block-card h5').allTextContents();

/** The headings of the steps, in order. */
export const stepHeadings = (page: Page) => page.locator('.step-card h3').allTextContents();

/** What dnd-kit's live regions have said (its announcements of a keyboard drag). */
export const dragSaid = (page: Page) => page.locator('[id^="DndLiveRegion"]').allTextContents();

/**
 * Resolves once a keyboard drag that has started listens for its keys: dnd-kit's keyboard sensor
 * starts the drag (and "Picked up" can be said) before it adds its keydown listener, in a timer of
 * its own, and a key pressed before that timer runs is lost (a loaded machine lost the first
 * ArrowUp). A timer set in the page now runs after it.
 */
export const keyboardDragListening = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve)));

/** The builder's preview frame (the preview route's wizard). */
export const previewFrame = (page: Page) => page.frameLocator('iframe[title="Preview"]');

/** How many rows of the publishing tab's versions table name version 1 and say "Served" (1 when it is the served one). */
export const versionOneServed = (page: Page) =>
  page
    .getByRole('row', { name: /Version 1/ })
    .getByText('Served')
    .count();

/** Screenshots for docs/pages.md (docs/screenshots/ keeps copies), as the inbox's are. */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/**
 * A screenshot of the window for docs/pages.md: the editor and, beside it, the live preview, once
 * the frame has answered the draft (its step picker then offers the draft's steps).
 * @param height - the window's height for the shot (then back to what it was), for a tab taller than the window.
 */
export async function builderShot(page: Page, name: string, height?: number) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await expect.poll(() => page.getByLabel('Step shown').locator('option[value="0"]').count()).toBe(1);
  const before = page.viewportSize()!;
  if (height) await page.setViewportSize({ width: before.width, height });
  await page.screenshot({ path: join(SCREENSHOTS, name) });
  if (height) await page.setViewportSize(before);
}

/**
 * Presses `key` during a keyboard drag until dnd-kit says `said` (at most `presses` times, 2 s
 * each). A press made while the list scrolls the next element into view, or as an autosave's
 * answer re-renders the list, may move nothing (decision 021, "Not built yet"): the team then
 * presses again, and so does the test. Only for a move that cannot overshoot (towards the end).
 */
export async function pressUntilSaid(page: Page, key: string, said: RegExp, presses = 5) {
  for (let press = 0; press < presses; press++) {
    await page.keyboard.press(key);
    const heard = await expect
      .poll(() => dragSaid(page), { timeout: 2000 })
      .toContainEqual(expect.stringMatching(said))
      .then(
        () => true,
        () => false,
      );
    if (heard) return;
  }
  await expect.poll(() => dragSaid(page)).toContainEqual(expect.stringMatching(said));
}
