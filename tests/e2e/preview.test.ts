import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import type { PreviewEvent } from '../../src/shared/preview';
import { rawDefaultConfig } from '../factories/application';
import { createInboxUser, openInbox, signIn } from './inbox-support';
import { useServerAndBrowser } from './support';

// The live preview. The builder frames /preview/{id} and sends the draft as typed; the
// frame renders it within 300 ms, on any step, and a submit in it stores and sends nothing.

const e2e = useServerAndBrowser();
beforeAll(() => createInboxUser(e2e.server));

/** A message the page that frames the preview received, when (performance.now, ms) and what the frame showed then. */
interface Received {
  data: PreviewEvent;
  at: number;
  title: string;
  text: string;
}

/**
 * Signed in on /admin (the builder's origin), creates page `id` from the default page through the
 * pages API and frames its preview, phone-wide, recording every message the frame sends.
 */
async function framePreview(id: string, draft?: unknown): Promise<{ page: Page & { jsErrors: string[] }; frame: Frame; requests: string[] }> {
  const page = await openInbox(e2e);
  await signIn(page);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  const statuses = await page.evaluate(
    async ({ pageId, config }) => {
      const headers = { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]+)/.exec(document.cookie)![1]!) };
      const created = await fetch('/api/admin/pages', { method: 'POST', headers, body: JSON.stringify({ id: pageId, from: 'default' }) });
      if (config === undefined) return [created.status];
      const saved = await fetch(`/api/admin/pages/${pageId}/draft`, { method: 'PUT', headers, body: JSON.stringify({ config, revision: 1 }) });
      return [created.status, saved.status];
    },
    { pageId: id, config: draft },
  );
  expect(statuses).toEqual(draft === undefined ? [201] : [201, 200]);
  await page.evaluate((src) => {
    const received: Received[] = [];
    Object.assign(window, { received });
    window.addEventListener('message', (event: MessageEvent<PreviewEvent>) => {
      const frame = document.querySelector('iframe')!;
      if (event.origin !== location.origin || event.source !== frame.contentWindow) return;
      // What the frame shows as it answers: read here, at the moment the answer arrives.
      const shown = frame.contentDocument!;
      received.push({ data: event.data, at: performance.now(), title: shown.title, text: shown.body.innerText });
    });
    const iframe = document.createElement('iframe');
    iframe.src = src;
    iframe.title = 'Preview';
    iframe.style.cssText = 'width: 390px; height: 844px; border: 0';
    document.body.append(iframe);
  }, `/preview/${id}`);
  await expect.poll(() => received(page, 'wizard-preview:ready')).toHaveLength(1);
  const frame = page.frames().find((candidate) => candidate.url().endsWith(`/preview/${id}`))!;
  return { page, frame, requests };
}

/** The messages of `type` the framing page has received, in order. */
const received = (page: Page, type: PreviewEvent['type']) =>
  page.evaluate((wanted) => (window as unknown as { received: Received[] }).received.filter((message) => message.data.type === wanted), type);

/** Posts `command` to the frame; returns when it was posted (performance.now, ms). */
const send = (page: Page, command: unknown) =>
  page.evaluate((message) => {
    const at = performance.now();
    document.querySelector('iframe')!.contentWindow!.postMessage(message, location.origin);
    return at;
  }, command);

it('renders a draft sent by the builder within 300 ms, goes to any step by command, and a submit in it stores and sends nothing', async () => {
  const { page, frame, requests } = await framePreview('summer');
  // The stored draft (a copy of the default page) as the real wizard.
  expect(await frame.title()).toBe(rawDefaultConfig().title);
  await expect.poll(() => frame.getByRole('heading', { level: 1 }).first().textContent()).toBe("Become a Crazy Aaron's creator");

  // The builder changes the title, a question and the theme: the frame shows them within 300 ms.
  const changed = { ...rawDefaultConfig(), pageId: 'summer', title: 'Summer creators', styleConfig: { theme: { primary: '#0b6e4f' } } } as {
    steps: { blocks: { component: string; data: { label?: string; html?: string } }[] }[];
  };
  changed.steps[0]!.blocks[0]!.data.html = '<h1>Create with us this summer</h1>';
  const sentAt = await send(page, { type: 'wizard-preview:config', config: changed });
  await expect.poll(() => received(page, 'wizard-preview:rendered')).toHaveLength(1);
  const [rendered] = await received(page, 'wizard-preview:rendered');
  expect(rendered!.data).toEqual({ type: 'wizard-preview:rendered', rendered: true, step: 0, steps: 4, problems: [] });
  expect(rendered!.title).toBe('Summer creators');
  expect(rendered!.text).toContain('Create with us this summer');
  expect(rendered!.at - sentAt, 'ms from the post to the rendered draft').toBeLessThan(300);
  expect(await frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand').trim())).toBe('#0b6e4f');

  // Step 3 ("More Details", 0-based 2) by command, past the required answers of step 2; then a
  // changed question on it, kept on the step shown.
  await send(page, { type: 'wizard-preview:step', step: 2 });
  await expect.poll(() => received(page, 'wizard-preview:rendered')).toHaveLength(2);
  expect((await received(page, 'wizard-preview:rendered'))[1]!.data).toMatchObject({ rendered: true, step: 2, steps: 4 });
  await expect.poll(() => frame.locator('[aria-current="step"] .step-label').textContent()).toBe('More Details');
  const select = changed.steps[2]!.blocks.find((block) => block.component === 'select')!;
  select.data.label = 'Which summer colours do you like?';
  const questionAt = await send(page, { type: 'wizard-preview:config', config: changed });
  await expect.poll(() => received(page, 'wizard-preview:rendered')).toHaveLength(3);
  const question = (await received(page, 'wizard-preview:rendered'))[2]!;
  expect(question.data).toMatchObject({ rendered: true, step: 2 });
  expect(question.text).toContain('Which summer colours do you like?');
  expect(question.at - questionAt).toBeLessThan(300);

  // A draft with problems is rendered with them; one the schema refuses keeps what is shown.
  await send(page, { type: 'wizard-preview:config', config: { ...changed, pageId: 'autumn' } });
  await expect.poll(() => received(page, 'wizard-preview:rendered')).toHaveLength(4);
  expect((await received(page, 'wizard-preview:rendered'))[3]!.data).toMatchObject({
    rendered: true,
    problems: [{ path: 'pageId', message: 'must be "summer", the page\'s id' }],
  });
  await send(page, { type: 'wizard-preview:config', config: { ...changed, steps: 'soon' } });
  await expect.poll(() => received(page, 'wizard-preview:rendered')).toHaveLength(5);
  const refused = (await received(page, 'wizard-preview:rendered'))[4]!;
  expect(refused.data).toMatchObject({ rendered: false, step: 2, steps: 4 });
  expect((refused.data as { problems: { path: string }[] }).problems.map((problem) => problem.path)).toContain('steps');
  expect(refused.text).toContain('Which summer colours do you like?');

  // A short page to submit: its one question step by command, answered, and sent.
  const short = {
    title: 'Summer creators',
    lang: 'en',
    pageId: 'summer',
    signUpUrl: 'https://creators.example/sign-up',
    steps: [
      { name: 'Welcome', blocks: [{ component: 'html', data: { html: '<h1>Summer</h1>' } }] },
      {
        name: 'About you',
        blocks: [
          { component: 'html', data: { html: '<h1>About you</h1>' } },
          { component: 'personalInfo', data: { fields: ['firstName', 'lastName', 'emailAddress'] } },
        ],
      },
      { name: 'Thanks', blocks: [{ component: 'html', data: { html: '<h1>Thank you, {email}</h1>' } }] },
    ],
    formItems: [
      { path: 'personalInfo.firstName', validators: ['required'] },
      { path: 'personalInfo.lastName', validators: ['required'] },
      { path: 'personalInfo.emailAddress', validators: ['required', 'email'] },
    ],
  };
  await send(page, { type: 'wizard-preview:config', config: short, step: 1 });
  await expect.poll(() => received(page, 'wizard-preview:rendered')).toHaveLength(6);
  expect((await received(page, 'wizard-preview:rendered'))[5]!.data).toEqual({
    type: 'wizard-preview:rendered',
    rendered: true,
    step: 1,
    steps: 3,
    problems: [],
  });
  await frame.getByLabel('First name', { exact: true }).fill('Kai');
  await frame.getByLabel('Last name', { exact: true }).fill('Tanaka');
  await frame.getByLabel('Email', { exact: true }).fill('kai@example.com');
  await frame.getByRole('button', { name: 'Submit application' }).click();
  await expect.poll(() => received(page, 'wizard-preview:submitted')).toHaveLength(1);
  await expect.poll(() => frame.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you, kai@example.com');
  // The step the team reached inside the frame is told, for the builder's step picker.
  await expect
    .poll(() => received(page, 'wizard-preview:navigated'))
    .toEqual([expect.objectContaining({ data: { type: 'wizard-preview:navigated', step: 2, steps: 3 } })]);

  // Nothing stored, nothing sent: no submit, funnel or analytics request; no draft kept in storage.
  expect(e2e.server.rows()).toEqual([]);
  expect(requests.filter((path) => path.startsWith('/api/syncPage/') || path.startsWith('/api/funnel/'))).toEqual([]);
  expect(await frame.evaluate(() => [...Object.keys(sessionStorage), ...Object.keys(localStorage)].filter((key) => key.startsWith('wizard:')))).toEqual([]);
  expect(page.jsErrors).toEqual([]);
  await page.close();
});

it('takes commands only from the page that frames it, on this origin', async () => {
  const { page, frame } = await framePreview('winter');
  // The frame's own window (any script of another window or origin likewise) is not the builder.
  await frame.evaluate(() => window.postMessage({ type: 'wizard-preview:step', step: 2 }, location.origin));
  await send(page, { type: 'wizard-preview:step', step: 1 });
  await expect.poll(() => received(page, 'wizard-preview:rendered')).toHaveLength(1);
  expect((await received(page, 'wizard-preview:rendered'))[0]!.data).toMatchObject({ step: 1 });
  await page.close();
});

it('waits for the builder’s draft in an empty shell when the stored draft does not parse', async () => {
  const { page, frame } = await framePreview('autumn', { title: '', steps: 'soon' });
  expect(await frame.locator('#root').innerHTML()).toBe('');
  await send(page, { type: 'wizard-preview:config', config: { ...rawDefaultConfig(), pageId: 'autumn', title: 'Autumn creators' }, step: 3 });
  await expect.poll(() => received(page, 'wizard-preview:rendered')).toHaveLength(1);
  const [rendered] = await received(page, 'wizard-preview:rendered');
  expect(rendered!.data).toEqual({ type: 'wizard-preview:rendered', rendered: true, step: 3, steps: 4, problems: [] });
  expect(rendered!.title).toBe('Autumn creators');
  expect(rendered!.text).toContain('Thank you for your submission!');
  expect(page.jsErrors).toEqual([]);
  await page.close();
});

it('ships the preview in a build of its own: no storage, beacon or request code in it, and none of it in the public wizard', () => {
  const dist = fileURLToPath(new URL('../../dist', import.meta.url));
  const preview = readdirSync(`${dist}/preview/assets`).filter((name) => name.endsWith('.js'));
  expect(preview.some((name) => name.startsWith('preview-'))).toBe(true);
  for (const name of preview) {
    const code = readFileSync(`${dist}/preview/assets/${name}`, 'utf8');
    for (const marker of ['sessionStorage', 'localStorage', 'sendBeacon', 'fetch(', 'XMLHttpRequest'])
      expect(code.includes(marker), `${name}: ${marker}`).toBe(false);
  }
  const wizard = readdirSync(`${dist}/assets`).filter((name) => name.endsWith('.js'));
  expect(wizard.filter((name) => readFileSync(`${dist}/assets/${name}`, 'utf8').includes('wizard-preview:'))).toEqual([]);
});
