import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWizardConfig } from '../../src/shared/config';
import { resolveMessages } from '../../src/shared/messages';
import { passExampleAgeScreen } from './flows';
import { launchBrowser, startServer, type RunningServer } from './support';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// The same layout checks for the default page and the example configuration (requirements §2 Wizard layout).
describe.each(['config/wizard.json', 'config/examples/createurs-fr.json'])('layout of %s', (file) => {
  const config = parseWizardConfig(JSON.parse(readFileSync(file, 'utf8'))).config!;
  const messages = resolveMessages(config.messages);
  const continueText = config.steps[0]!.continueButtonText ?? config.buttonText.continue ?? messages.continue;
  const backText = config.buttonText.back ?? messages.back;
  let server: RunningServer;
  /** From the welcome step to the second step's questions: past the age screen where the page has one (the French example). */
  const toQuestions = async (page: Page) => {
    await page.getByRole('button', { name: continueText }).click();
    if (config.ageScreen) await passExampleAgeScreen(page);
  };

  beforeAll(async () => {
    server = await startServer({ WIZARD_CONFIG: file });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('at 1280px: cover panel on the left, content at most 540px wide, step bar with numbered dots and labels', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url);
    const cover = await page.locator('.cover').boundingBox();
    const content = await page.locator('.content-inner').boundingBox();
    expect(cover!.x).toBe(0);
    expect(content!.x).toBeGreaterThanOrEqual(cover!.x + cover!.width);
    expect(content!.width).toBeLessThanOrEqual(540);
    const stepBar = page.getByRole('navigation', { name: messages.stepsLabel });
    expect(await stepBar.locator('.step-dot').allTextContents()).toEqual(config.steps.map((_, index) => String(index + 1)));
    expect(await stepBar.locator('.step-label').allTextContents()).toEqual(config.steps.map((step) => step.name));
    expect(await stepBar.locator('[aria-current="step"] .step-label').textContent()).toBe(config.steps[0]!.name);
    expect(await page.locator('.back-arrow').count()).toBe(0);
    await page.getByRole('button', { name: continueText }).click();
    await expect.poll(() => page.locator('.back-button').isVisible()).toBe(true);
    expect(await page.locator('.back-arrow').isVisible()).toBe(false);
    await page.close();
  });

  it('from 320 to 2560px: nothing squeezed or cut, the content keeps its 540px, two columns only where they fit, the step bar as tall on every step', async () => {
    for (const width of [320, 600, 768, 979, 980, 2560]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(server.url);
      const cover = (await page.locator('.cover').boundingBox())!;
      const content = (await page.locator('.content-inner').boundingBox())!;
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width}px`).toBeLessThanOrEqual(width);
      // 540px, or the whole screen less its margins.
      expect(Math.round(content.width), `${width}px`).toBe(Math.min(540, width - (width <= 576 ? 32 : 48)));
      if (width >= 980) expect(content.x, `${width}px: beside the cover`).toBeGreaterThanOrEqual(cover.x + cover.width);
      else expect(cover.y + cover.height, `${width}px: the cover above`).toBeLessThanOrEqual(content.y + 1);
      if (width > 576) {
        const heights = [];
        for (let step = 0; step < config.steps.length - 1; step++) {
          heights.push((await page.locator('.step-bar').boundingBox())!.height);
          for (const label of await page.locator('.step-label').all()) {
            // Two lines at most, none cut inside a word.
            expect(await label.evaluate((element) => element.scrollHeight <= element.clientHeight + 1), `${width}px`).toBe(true);
          }
          if (step === 0) await page.getByRole('button', { name: continueText }).click();
          else break;
          await expect.poll(() => page.locator('[aria-current="step"] .step-label').textContent()).toBe(config.steps[1]!.name);
        }
        expect(new Set(heights).size, `${width}px: ${heights.join(', ')}`).toBe(1);
      }
      await page.close();
    }
  });

  it('shows every invalid control with the error border, text inputs included', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url);
    await toQuestions(page);
    // The second step's form in place (the engine may still be arriving on a loaded machine), then pressed empty.
    await expect.poll(() => page.locator('[aria-current="step"] .step-label').textContent()).toBe(config.steps[1]!.name);
    await page.locator('.step input').first().waitFor();
    const stepContinue = config.steps[1]!.continueButtonText ?? config.buttonText.continue ?? messages.continue;
    await page.getByRole('button', { name: stepContinue }).click();
    const invalid = page.locator('.field input[aria-invalid="true"]:not(.select-input)').first();
    await invalid.waitFor();
    const borderOf = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => getComputedStyle(element).borderTopColor);
    const errorColour = await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.style.color = 'var(--error)';
      document.body.append(probe);
      const colour = getComputedStyle(probe).color;
      probe.remove();
      return colour;
    });
    // The border eases into red (a 120 ms transition): wait for it to arrive.
    await expect.poll(() => borderOf('.field input[aria-invalid="true"]:not(.select-input)')).toBe(errorColour);
    // The select's own input stays frameless inside its red frame.
    if (await page.locator('.select-control-invalid').count()) {
      await expect.poll(() => borderOf('.select-control-invalid')).toBe(errorColour);
      expect(
        await page
          .locator('.select-control-invalid .select-input')
          .first()
          .evaluate((element) => getComputedStyle(element).borderTopWidth),
      ).toBe('0px');
    }
    await page.close();
  });

  it.each([320, 600, 1280, 1920])(
    'at %ipx: the calling code shows its flag, an SVG image that loaded, and the code in full (+1, +1-684); only the flags shown are fetched; no emoji flag anywhere',
    async (width) => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const flagsFetched: string[] = [];
      page.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (pathname.startsWith('/flags/')) flagsFetched.push(pathname);
      });
      await page.goto(server.url);
      await toQuestions(page);
      const field = page.locator('.phone-calling-code');
      const input = field.locator('.select-input');
      const flag = field.locator('.select-adornment img');
      /** The box's text, whether it fits its input, and whether flag, text and toggle sit in order inside the frame. */
      const box = () =>
        field.evaluate((element) => {
          const text = element.querySelector<HTMLInputElement>('.select-input')!;
          const frame = element.querySelector('.select-control')!.getBoundingClientRect();
          const [image, typed, toggle] = ['.select-adornment img', '.select-input', '.select-toggle'].map((selector) =>
            element.querySelector(selector)!.getBoundingClientRect(),
          );
          const inside = [image!, typed!, toggle!].every((part) => part.width > 0 && part.left >= frame.left - 0.5 && part.right <= frame.right + 0.5);
          return {
            value: text.value,
            fits: text.scrollWidth <= text.clientWidth,
            inOrder: inside && image!.right <= typed!.left && typed!.right <= toggle!.left,
          };
        });
      const loaded = () => flag.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0);
      /** Regional indicator symbols (🇦–🇿, of which every flag emoji is a pair) in the page's text or its inputs. */
      const emojiFlags = () =>
        page.evaluate(
          () =>
            [document.body.innerText, ...[...document.querySelectorAll('input')].map((element) => element.value)].join(' ').match(/[\u{1F1E6}-\u{1F1FF}]/gu) ??
            [],
        );

      // The default +1; on the French example, France's +33: the country its age screen was answered with.
      const [code, country] = config.ageScreen?.minimumAge === 'byCountry' ? ['+33', 'fr'] : ['+1', 'us'];
      await expect.poll(() => input.inputValue()).toBe(code);
      expect(await box()).toEqual({ value: code, fits: true, inOrder: true });
      expect(await flag.getAttribute('src')).toMatch(new RegExp(`^/flags/[^/]+/4x3/${country}\\.svg$`));
      await expect.poll(loaded).toBe(true);
      expect(await flag.getAttribute('alt')).toBe('');
      // The page shows one flag, and fetched that one only.
      expect(flagsFetched).toEqual([await flag.getAttribute('src')]);
      expect(await emojiFlags()).toEqual([]);

      // The list: each option with its flag; only the options rendered fetch theirs.
      await input.click();
      await expect.poll(() => page.getByRole('option').count()).toBeGreaterThan(3);
      expect(await page.getByRole('option').first().locator('img.flag').count()).toBe(1);
      expect(await emojiFlags()).toEqual([]);
      expect(new Set(flagsFetched).size).toBeLessThan(40);
      // The longest code, as the data writes it.
      await input.fill('684');
      await page.getByRole('option', { name: /^\+1-684 / }).click();
      await expect.poll(() => input.inputValue()).toBe('+1-684');
      expect(await box()).toEqual({ value: '+1-684', fits: true, inOrder: true });
      expect(await flag.getAttribute('src')).toMatch(/\/as\.svg$/);
      await expect.poll(loaded).toBe(true);
      await page.close();
    },
  );

  it('at 375px: no step bar, Back is an arrow in the logo bar, the cover sits above and a step change scrolls past it', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    // Hold the engine back: Continue on the welcome step works before it arrives, and the
    // step it shows meanwhile is short; the scroll past the cover must not depend on its height.
    let releaseEngine!: () => void;
    const engineHeld = new Promise<void>((resolve) => (releaseEngine = resolve));
    await page.route('**/assets/wizard-engine-*.js', async (route) => {
      await engineHeld;
      await route.continue();
    });
    await page.goto(server.url);
    expect(await page.locator('.step-bar').isVisible()).toBe(false);
    const cover = await page.locator('.cover').boundingBox();
    const content = await page.locator('.content-inner').boundingBox();
    expect(cover!.y + cover!.height).toBeLessThanOrEqual(content!.y + 1);
    expect(content!.width).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: continueText }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThanOrEqual(Math.floor(cover!.height) - 2);
    releaseEngine();
    const back = page.getByRole('button', { name: backText });
    await expect.poll(() => back.count()).toBe(1);
    expect(await back.evaluate((element) => element.closest('.logo-bar') !== null)).toBe(true);
    expect(await back.textContent()).toBe('←');
    // A centred logo stays centred on the screen beside the arrow (outside review).
    if (config.centerLogo && config.showLogo !== false) {
      const logo = (await page.locator('.logo-bar .logo').boundingBox())!;
      const bar = (await page.locator('.logo-bar').boundingBox())!;
      expect(Math.abs(logo.x + logo.width / 2 - (bar.x + bar.width / 2))).toBeLessThanOrEqual(1);
    }
    await back.click();
    await expect.poll(() => page.locator('[aria-current="step"] .step-label').textContent()).toBe(config.steps[0]!.name);
    await page.close();
  });

  it('at 360px (and below): the phone number under its calling code, so a long label never lowers its box', async () => {
    for (const width of [360, 320]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(server.url);
      await toQuestions(page);
      const code = page.locator('.phone-calling-code input[role="combobox"]');
      await code.waitFor();
      const number = page.locator('.phone input[type="tel"]');
      // Measured once the step has come in (its entrance moves both boxes while it runs).
      const gap = async () => {
        const [codeBox, numberBox] = [(await code.boundingBox())!, (await number.boundingBox())!];
        return { below: numberBox.y - (codeBox.y + codeBox.height), width: numberBox.width };
      };
      await expect.poll(async () => (await gap()).below, { message: `${width}px` }).toBeGreaterThan(0);
      expect((await gap()).width, `${width}px`).toBeGreaterThan(width - 60);
      await page.close();
    }
  });
});
