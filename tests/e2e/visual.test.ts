import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { currentStep, fillDefaultStep, fillExampleStep, passExampleAgeScreen } from './flows';
import { useServerAndBrowser } from './support';

// Visual regression (decision 019): every step of both configurations at 375, 768, 1280 and 1920px is
// written to test-results/screenshots/ and compared, pixel by pixel (pixelmatch), with the baseline
// committed in tests/e2e/visual-baselines/. A step that changes by more than a few anti-aliased
// pixels fails, and its difference is written beside it (`…-diff.png`). After an intended change,
// write the baselines again and look at them before committing:
//   UPDATE_VISUAL_BASELINES=1 npx vitest run tests/e2e/visual.test.ts

const BASELINES = fileURLToPath(new URL('./visual-baselines/', import.meta.url));
const OUT = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const UPDATE = process.env.UPDATE_VISUAL_BASELINES === '1';
const WIDTHS = [375, 768, 1280, 1920];
/** pixelmatch's per-pixel colour threshold (0–1): anti-aliasing and hinting, not changes. */
const PIXEL_THRESHOLD = 0.1;
/** The share of pixels that may differ before a step counts as changed. */
const MAX_DIFF_RATIO = 0.0001;

/** Waits until what the screenshot shows has settled: the web font, the images in view, the scroll. */
async function settled(page: Page) {
  await page.mouse.move(0, 0);
  // A step change scrolls the step into view (requirements §2): let it end, then take the page from its top.
  let last = -1;
  await expect
    .poll(async () => {
      const now = await page.evaluate(
        () => new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY)))),
      );
      const still = now === last;
      last = now;
      return still;
    })
    .toBe(true);
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await page.evaluate(() => document.fonts.ready);
  await expect
    .poll(() =>
      page.evaluate(() => document.fonts.check('700 16px Nunito') && [...document.fonts].some((font) => font.family === 'Nunito' && font.status === 'loaded')),
    )
    .toBe(true);
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.images].every((image) => {
          const box = image.getBoundingClientRect();
          const inView = box.bottom > 0 && box.top < innerHeight && box.width > 0;
          return !inView || (image.complete && image.naturalWidth > 0);
        }),
      ),
    )
    .toBe(true);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
}

/**
 * A PNG's pixels, 8-bit RGBA, decoded by sharp (libvips, off the test's thread): pngjs took about
 * three times as long for each of the run's 80 decodes.
 */
async function rgba(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Writes the screenshot, and compares it with its baseline (or writes the baseline, when updating). */
async function compare(page: Page, name: string) {
  await settled(page);
  const shot = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
  writeFileSync(`${OUT}${name}.png`, shot);
  const baselineFile = `${BASELINES}${name}.png`;
  if (UPDATE) {
    // The same pixels, compressed harder: the baselines live in the repository.
    writeFileSync(baselineFile, await sharp(shot).png({ compressionLevel: 9, adaptiveFiltering: true, effort: 10 }).toBuffer());
    return;
  }
  expect(existsSync(baselineFile), `${name}: no baseline; write it with UPDATE_VISUAL_BASELINES=1`).toBe(true);
  const [actual, expected] = await Promise.all([rgba(shot), rgba(readFileSync(baselineFile))]);
  expect(`${actual.width}×${actual.height}`, `${name}: the page's size changed`).toBe(`${expected.width}×${expected.height}`);
  const diff = new PNG({ width: actual.width, height: actual.height });
  const differing = pixelmatch(actual.data, expected.data, diff.data, actual.width, actual.height, { threshold: PIXEL_THRESHOLD });
  if (differing / (actual.width * actual.height) > MAX_DIFF_RATIO) writeFileSync(`${OUT}${name}-diff.png`, PNG.sync.write(diff));
  expect(differing / (actual.width * actual.height), `${name}: ${differing} pixels differ (see test-results/screenshots/${name}-diff.png)`).toBeLessThanOrEqual(
    MAX_DIFF_RATIO,
  );
}

const CONFIGURATIONS: {
  name: string;
  env: Record<string, string>;
  steps: string[];
  /** The name of step `index`'s button. */
  next: (index: number) => string;
  fill: (page: Page, index: number) => Promise<void>;
  /** Answers what shows before the second step's questions (the French example's age screen). */
  before?: (page: Page) => Promise<void>;
}[] = [
  {
    name: 'default',
    env: {},
    steps: ['Welcome', 'Introduce Yourself', 'More Details', 'Creator Hub'],
    next: (index) => (index === 2 ? 'Submit application' : 'Continue'),
    fill: fillDefaultStep,
  },
  {
    name: 'french',
    env: { WIZARD_CONFIG: 'config/examples/createurs-fr.json' },
    steps: ['Bienvenue', 'Vous', 'Réseaux', 'Projet'],
    next: () => 'Continuer',
    fill: fillExampleStep,
    before: passExampleAgeScreen,
  },
];

mkdirSync(OUT, { recursive: true });
mkdirSync(BASELINES, { recursive: true });

for (const configuration of CONFIGURATIONS) {
  describe(`every step of the ${configuration.name} configuration looks as its baseline`, () => {
    const e2e = useServerAndBrowser(configuration.env);

    it.each(WIDTHS)('at %ipx', async (width) => {
      const page = await e2e.browser.newPage({ viewport: { width, height: width < 576 ? 740 : 900 } });
      await page.goto(e2e.server.url);
      for (let index = 0; index < configuration.steps.length; index++) {
        await expect.poll(() => currentStep(page)).toBe(configuration.steps[index]);
        if (index === 1) await configuration.before?.(page);
        await compare(page, `${configuration.name}-step-${index + 1}-${width}`);
        if (index === configuration.steps.length - 1) break;
        if (index === 1) {
          // The invalid state of every kind of control (text, select, phone): pressed with nothing filled.
          await page.getByRole('button', { name: configuration.next(index) }).click();
          await expect.poll(() => page.locator('.step [aria-invalid="true"]').count()).toBeGreaterThan(2);
          await compare(page, `${configuration.name}-step-${index + 1}-invalid-${width}`);
        }
        await configuration.fill(page, index);
        await page.getByRole('button', { name: configuration.next(index) }).click();
      }
      await page.close();
    });
  });
}
