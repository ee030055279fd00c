import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import type { ApplicationPayload } from '../../src/shared/payload';
import { openStore } from '../../src/server/store/store';
import { failedLoad, type RunningServer, type ServerAndBrowser } from './support';
import { expectConsoleError } from '../support/console-errors';
import { completeForDefaultPage } from '../factories/application';
import { createTestUser } from '../support/users';
import type { AdminRole } from '../../src/shared/admin';
import { putApplication } from '../support/bot-check';

/** The inbox user every inbox test file creates (the owner, as the first account the command line creates is; {@link createInboxUser}). */
export const INBOX_USER = { email: 'reviewer@brand.example', password: 'a long review password' };
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** {@link WCAG_TAGS} and axe's best practices (landmarks, headings in order). */
export const WCAG_AND_BEST_PRACTICES = [...WCAG_TAGS, 'best-practice'];

/** A read-only inbox user ({@link createInboxUser} with `viewer`). */
export const INBOX_VIEWER = { email: 'intern@brand.example', password: 'a long viewer password' };

/**
 * Creates {@link INBOX_USER} (or `user`, with `role`) in the server's database, as
 * `npm run admin -- create-user` does (the same store call and password hash; the command itself
 * is tested in scripts/admin.test.ts). In this process: a command is a process of its own with
 * about a second of CPU to load its modules, once per user of each file (docs/decisions/017).
 */
export async function createInboxUser(server: RunningServer, user: { email: string; password: string } = INBOX_USER, role: AdminRole = 'owner') {
  const store = await openStore(`sqlite:${server.dbFile}`);
  try {
    await createTestUser(store, user, role);
  } finally {
    await store.close();
  }
}

/**
 * A page that records script errors and console errors (a CSP violation is one).
 * @param locale - the browser's language (`en-US` unless given).
 */
export async function openInbox(
  e2e: ServerAndBrowser,
  path = '/admin',
  viewport = { width: 1280, height: 900 },
  locale = 'en-US',
): Promise<Page & { jsErrors: string[] }> {
  // A context of its own per page (browser.newPage): no cookies shared, and axe needs one.
  const page = await e2e.browser.newPage({ viewport, acceptDownloads: true, locale });
  // Opened signed out, the inbox asks who is signed in and is told 401, which Chromium logs.
  expectConsoleError(failedLoad(401, '/api/admin/session'));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('401')) errors.push(message.text());
  });
  await page.goto(`${e2e.server.url}${path}`);
  return Object.assign(page, { jsErrors: errors });
}

/** Fills and sends the sign-in form as {@link INBOX_USER} (or `user`), and waits until the form has gone. */
export async function signIn(page: Page, user: { email: string; password: string } = INBOX_USER) {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await signedIn(page);
}

/**
 * Waits until the sign-in form has gone. The server's scrypt takes well over a second on a busy
 * machine, longer than the one-second polls that follow a sign-in in these tests.
 */
export async function signedIn(page: Page) {
  await page.getByRole('heading', { name: 'Sign in to the applications inbox' }).waitFor({ state: 'detached', timeout: 30_000 });
}

/**
 * axe's violations on the page as it is, its frames' included, each prefixed with `where`.
 * @param tags - the rules' tags to run: WCAG 2.2 AA unless given (the wizard's scans add axe's best practices).
 * @param exclude - a selector of what the scan leaves out (a frame scanned on its own elsewhere).
 * axe runs in its legacy mode: injected into every frame and run from the top one, results put
 * together there. The default mode puts them together in a new page of the context, with axe
 * injected again: a third more of the time and CPU a scan takes (accessibility.test.ts alone,
 * 70 s → 46 s), and the same violations found (a frame's too).
 */
export async function violations(page: Page, where: string, tags: readonly string[] = WCAG_TAGS, exclude?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags([...tags]).setLegacyMode(true);
  const results = await (exclude ? builder.exclude(exclude) : builder).analyze();
  return results.violations.map((violation) => `${where}: ${violation.id} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/** True when the page scrolls sideways (its content is wider than the window). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** The text of the inbox's one live region (`announce`). */
export function announcement(page: Page): Promise<string> {
  return page.getByTestId('announcer').innerText();
}

/**
 * How many presses of Tab (Shift+Tab with `back`) at least lie between the focused element and
 * `target`, counted in the page: the elements of the document (a modal dialog's, when one is open)
 * in tree order with a tab index of 0, shown, enabled and not inert. A lower bound of the real
 * sequential focus order: what it leaves out (radios, frames' and shadow trees' content, scrollable
 * regions Chromium makes focusable) only adds stops. 0 when `target` has focus; undefined when the
 * page does not tell (focus in a frame or on an element not counted, a positive tab index anywhere).
 */
function tabStopsTo(target: Locator, back: boolean): Promise<number | undefined> {
  return target
    .evaluate((element, back) => {
      if (element === document.activeElement) return 0;
      const scope = document.querySelector('dialog:modal') ?? document;
      const stops = [...scope.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex], [contenteditable]')];
      if (stops.some((stop) => stop.tabIndex > 0)) return undefined;
      const shown = stops.filter(
        (stop) =>
          stop.tabIndex === 0 && !stop.matches(':disabled, [inert] *, [inert], input[type="radio"]') && stop.checkVisibility({ visibilityProperty: true }),
      );
      const from = shown.indexOf(document.activeElement as HTMLElement);
      const to = shown.indexOf(element as HTMLElement);
      if (to < 0 || (from < 0 && document.activeElement !== document.body)) return undefined;
      // From the body, the first press focuses the first stop (the last, going back).
      const distance = back ? (from < 0 ? shown.length : from) - to : to - from;
      return distance > 0 ? distance : undefined;
    }, back)
    .catch(() => undefined);
}

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has focus, at most `max` times (80 unless
 * given); fails when it never does. The presses that surely do not reach it yet ({@link tabStopsTo})
 * go in one run, the rest one at a time, each followed by a look at the focus.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 80 }: { back?: boolean; max?: number } = {}) {
  for (let pressed = 0; pressed < max;) {
    const between = await tabStopsTo(target, back);
    if (between === 0) return;
    const presses = Math.max(1, Math.min((between ?? 1) - 1, max - pressed));
    for (let i = 0; i < presses; i++) await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    pressed += presses;
  }
  if ((await tabStopsTo(target, back)) === 0) return;
  throw new Error(`${back ? 'Shift+Tab' : 'Tab'} never reached ${target.toString()}`);
}

/** Stores an application as the wizard sends it, on the default page; returns its id. */
export async function submitApplication(server: RunningServer, payload: ApplicationPayload): Promise<string> {
  const response = await putApplication(server.url, completeForDefaultPage(payload));
  if (response.status !== 201) throw new Error(`submit answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** Three applicants with different followers, countries and answers: the views' and the phone's tests sort and filter them. */
export const VIEW_APPLICANTS = [
  {
    firstName: 'Zoe',
    lastName: 'Adams',
    email: 'zoe@example.com',
    country: 'DE',
    instagram: 'zoe.makes',
    followers: '1200',
    fields: { howFamiliar: 'Super-Fan', whichProducts: 'Thinking Putty, Land of Dough', dreamCampaign: 'A putty castle' },
  },
  {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    country: 'GB',
    tiktok: 'ada.tok',
    followers: '250000',
    fields: { howFamiliar: 'Unfamiliar', whichProducts: 'Slime Charmers', dreamCampaign: 'Short films' },
  },
  {
    firstName: 'Bob',
    lastName: 'Brown',
    email: 'bob@example.com',
    country: 'FR',
    instagram: 'bob.makes',
    followers: '40000',
    fields: { howFamiliar: 'Super-Fan', whichProducts: 'Slime Charmers', dreamCampaign: 'Unboxing' },
  },
];
