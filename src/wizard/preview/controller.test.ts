import { describe, expect, it } from 'vitest';
import type { WizardConfig } from '../../shared/config';
import type { PreviewEvent } from '../../shared/preview';
import { rawDefaultConfig } from '../../../tests/factories/application';
import { createPreviewController, type PreviewControllerOptions } from './controller';

const ORIGIN = 'https://brand.example';
const PARENT = { name: 'the builder' };

/** A controller over a view that records what it was asked to show, answering `ok` (or what `answers` says, in turn). */
function harness(initial: PreviewControllerOptions['initial'] = { config: undefined, problems: [] }, answers: boolean[] = []) {
  const shown: { config: WizardConfig; step: number }[] = [];
  const events: PreviewEvent[] = [];
  const controller = createPreviewController({
    pageId: 'creators',
    origin: ORIGIN,
    parent: PARENT,
    post: (event) => events.push(event),
    initial,
    view: {
      show(config, step) {
        shown.push({ config, step });
        return Promise.resolve(answers.shift() ?? true);
      },
    },
  });
  /** Delivers `data` as the builder would and waits until the controller has answered. */
  const send = async (data: unknown, from: { origin?: string; source?: unknown } = {}) => {
    const before = events.length;
    controller.receive({ data, origin: from.origin ?? ORIGIN, source: (from.source ?? PARENT) as MessageEventSource });
    // The controller works through a promise chain; a few turns of it settle every command.
    for (let turn = 0; turn < 10 && events.length === before; turn++) await Promise.resolve();
  };
  const rendered = () => events.filter((event) => event.type === 'wizard-preview:rendered');
  return { controller, shown, events, send, rendered };
}

/** The default page's configuration as typed, changed by `change`. */
const draft = (change: Record<string, unknown> = {}) => ({ ...rawDefaultConfig(), ...change }) as Record<string, unknown> & { steps: unknown[] };

describe('the preview frame’s command handling', () => {
  it('renders a draft sent by the framing window, sanitised, on the step asked for, and answers with its problems', async () => {
    const { send, shown, rendered } = harness();
    const config = draft({ title: 'Summer' });
    (config.steps[0] as { blocks: { data: { html: string } }[] }).blocks[0]!.data.html = '<h1 onclick="steal()">Hi</h1><script>steal()</script>';
    await send({ type: 'wizard-preview:config', config, step: 2 });
    expect(shown).toHaveLength(1);
    expect(shown[0]!.step).toBe(2);
    expect(shown[0]!.config.title).toBe('Summer');
    expect(shown[0]!.config.steps[0]!.blocks[0]).toMatchObject({ data: { html: '<h1>Hi</h1>' } });
    expect(rendered()).toEqual([{ type: 'wizard-preview:rendered', rendered: true, step: 2, steps: 4, problems: [] }]);
  });

  it('ignores messages of another origin, of another window, and anything that is not a command', async () => {
    const { send, shown, events } = harness();
    await send({ type: 'wizard-preview:config', config: draft() }, { origin: 'https://evil.example' });
    await send({ type: 'wizard-preview:config', config: draft() }, { source: { name: 'another frame' } });
    await send({ type: 'something-else', config: draft() });
    await send('wizard-preview:config');
    expect(shown).toEqual([]);
    expect(events).toEqual([]);
  });

  it('keeps the step shown, within the steps of the new draft, and follows the steps the team takes inside the frame', async () => {
    const { controller, send, shown, events, rendered } = harness();
    await send({ type: 'wizard-preview:config', config: draft() });
    expect(shown.at(-1)!.step).toBe(0);
    // Mounting on the step asked for is no navigation.
    controller.stepShown(0, 4);
    expect(events.filter((event) => event.type === 'wizard-preview:navigated')).toEqual([]);
    controller.stepShown(3, 4);
    expect(events.at(-1)).toEqual({ type: 'wizard-preview:navigated', step: 3, steps: 4 });
    const shorter = draft();
    shorter.steps = shorter.steps.slice(0, 2).concat(shorter.steps.slice(3));
    await send({ type: 'wizard-preview:config', config: shorter });
    expect(shown.at(-1)!.step).toBe(2);
    expect(rendered().at(-1)).toMatchObject({ rendered: true, step: 2, steps: 3 });
  });

  it('goes to any step of the draft shown, ignores a step that is no step, and has none to go to in an empty shell', async () => {
    const empty = harness();
    await empty.send({ type: 'wizard-preview:step', step: 1 });
    expect(empty.shown).toEqual([]);
    expect(empty.rendered()).toEqual([{ type: 'wizard-preview:rendered', rendered: false, step: 0, steps: 0, problems: [] }]);

    const { send, shown, events } = harness();
    await send({ type: 'wizard-preview:config', config: draft() });
    await send({ type: 'wizard-preview:step', step: 9 });
    expect(shown.at(-1)!.step).toBe(3);
    const before = events.length;
    await send({ type: 'wizard-preview:step', step: -1 });
    await send({ type: 'wizard-preview:step', step: 1.5 });
    expect(events).toHaveLength(before);
  });

  it('shows a draft the checks refuse as far as it parses; keeps what is shown when the schema refuses it or it fails to render', async () => {
    const inlined = { config: undefined, problems: [{ path: 'title', message: 'Too small' }] };
    const { send, shown, rendered } = harness(inlined, [true, true, false]);
    await send({ type: 'wizard-preview:config', config: draft({ pageId: 'autumn' }), step: 1 });
    expect(shown).toHaveLength(1);
    expect(rendered().at(-1)).toEqual({
      type: 'wizard-preview:rendered',
      rendered: true,
      step: 1,
      steps: 4,
      problems: [{ path: 'pageId', message: 'must be "creators", the page\'s id' }],
    });

    await send({ type: 'wizard-preview:config', config: draft({ steps: 'soon' }) });
    expect(shown).toHaveLength(1);
    expect(rendered().at(-1)).toMatchObject({ rendered: false, step: 1, steps: 4, problems: [expect.objectContaining({ path: 'steps' })] });

    await send({ type: 'wizard-preview:step', step: 2 });
    expect(rendered().at(-1)).toMatchObject({ rendered: true, step: 2 });
    // The view could not render the next one: the step and draft before it stay.
    await send({ type: 'wizard-preview:config', config: draft({ title: 'Broken' }), step: 0 });
    expect(rendered().at(-1)).toMatchObject({ rendered: false, step: 2, steps: 4 });
  });

  it('renders only the last of the drafts that arrive while one renders', async () => {
    const { controller, shown, rendered } = harness();
    for (const title of ['S', 'Su', 'Sum'])
      controller.receive({
        data: { type: 'wizard-preview:config', config: draft({ title }) },
        origin: ORIGIN,
        source: PARENT as unknown as MessageEventSource,
      });
    await expect.poll(() => rendered()).toHaveLength(1);
    expect(shown.map(({ config }) => config.title)).toEqual(['Sum']);
  });
});
