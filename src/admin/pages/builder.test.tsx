import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useCallback, useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BlockForm } from './block-forms';
import { VALIDATOR_LABELS } from './rules-editor';
import { checkDraft } from './checks';
import { enclosingPaths, fieldId, getAt, setAt, tabOf, type DraftPath } from './draft';
import { EditorProvider, type Problem } from './fields';
import { ListKeys } from './keys';
import { fromLocalInput, toLocalInput } from './publishing';
import { StepsEditor, oneStepCoordinates } from './steps-editor';
import { PAGE_STATE_REFRESH_MS, refreshWhileUsed } from '../features/pages/api';
import { pageState, usePageState } from './page-state';
import { answerNames, messageLabel, placeOf } from './places';
import { removalExtras, removeElement } from './removal';
import { draftFields, offeredRules } from './answers';
import { VALIDATOR_NAMES } from '../../shared/form-items';
import { PLATFORM_NAMES } from '../../shared/platforms';
import { rawDefaultConfig } from '../../../tests/factories/application';

afterEach(cleanup);

// The builder's pieces without a server: the draft's paths, the forms' wiring of a
// block's rules into `formItems`, and problems shown at their fields by JSON path.

describe('the draft, path by path', () => {
  it('sets and removes values without touching the rest, making objects and arrays on the way', () => {
    const draft = { title: 'A', steps: [{ name: 'One', blocks: [] }] };
    const named = setAt(draft, ['steps', 0, 'name'], 'First');
    expect(getAt(named, ['steps', 0, 'name'])).toBe('First');
    expect(draft.steps[0]!.name).toBe('One');
    expect((named as typeof draft).title).toBe('A');
    expect(setAt({}, ['styleConfig', 'theme', 'primary'], '#123456')).toEqual({ styleConfig: { theme: { primary: '#123456' } } });
    expect(setAt({ buttonText: { back: 'Zurück' } }, ['buttonText', 'back'], undefined)).toEqual({ buttonText: {} });
    expect(setAt({ list: ['a', 'b', 'c'] }, ['list', 1], undefined)).toEqual({ list: ['a', 'c'] });
  });

  it('finds the field of a problem by its JSON path, nearest first, and the tab that shows it', () => {
    expect(enclosingPaths('steps[1].blocks[0].data.options[2].value')).toEqual([
      'steps[1].blocks[0].data.options[2].value',
      'steps[1].blocks[0].data.options[2]',
      'steps[1].blocks[0].data.options',
      'steps[1].blocks[0].data',
      'steps[1].blocks[0]',
      'steps[1].blocks',
      'steps[1]',
      'steps',
    ]);
    expect(fieldId('steps[1].name')).toBe('field-steps-1--name');
    expect(tabOf('formItems[3].validators[1]')).toBe('steps');
    expect(tabOf('messages.closed')).toBe('messages');
    expect(tabOf('subdivisionNames.US-CA')).toBe('messages');
    expect(tabOf('styleConfig.theme.primary')).toBe('page');
    expect(tabOf('(root)')).toBe('json');
    expect(tabOf('hosts.0')).toBe('publishing');
  });

  it('keeps list keys with their elements as they move, come and go', () => {
    const keys = new ListKeys();
    const [a, b, c] = keys.of('steps', 3);
    keys.move('steps', 0, 2);
    expect(keys.of('steps', 3)).toEqual([b, c, a]);
    const added = keys.insert('steps', 1);
    expect(keys.of('steps', 4)).toEqual([b, added, c, a]);
    expect(keys.fresh.has(added)).toBe(true);
    keys.remove('steps', 0);
    expect(keys.of('steps', 3)).toEqual([added, c, a]);
  });

  it('turns a datetime-local value into an instant with its offset, and back', () => {
    const iso = fromLocalInput('2027-03-01T09:30');
    expect(iso).toBe(new Date('2027-03-01T09:30').toISOString());
    expect(toLocalInput(iso)).toBe('2027-03-01T09:30');
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(null)).toBe('');
  });
});

/** A select block on the first step, and the draft holding it. */
const SELECT_DRAFT = {
  steps: [
    {
      name: 'One',
      blocks: [{ component: 'select', data: { path: 'fields.colour', label: 'Colour?', options: [{ name: 'Red', value: 'Red' }] } }],
    },
    { name: 'Two', blocks: [{ component: 'textField', data: { path: 'fields.why', label: 'Why?' } }] },
    { name: 'Thanks', blocks: [] },
  ],
};

/** The block form of `path` over a live draft; `latest()` reads the draft as changed. */
function renderBlock(path: DraftPath, problems: Problem[] = [], initial: unknown = SELECT_DRAFT) {
  let latest: unknown = initial;
  function Harness({ children }: { children: (draft: unknown) => ReactNode }) {
    const [draft, setDraft] = useState<unknown>(initial);
    const change = useCallback((at: DraftPath, value: unknown) => {
      setDraft((before: unknown) => (latest = setAt(before, at, value)));
    }, []);
    return (
      <EditorProvider draft={draft} change={change} readOnly={false} problems={problems}>
        {children(draft)}
      </EditorProvider>
    );
  }
  render(<Harness>{(draft) => <BlockForm path={path} block={getAt(draft, path)} />}</Harness>);
  return { latest: () => latest };
}

describe("a block's form", () => {
  it("edits a select's question and options, the value following the name while they were the same", () => {
    const { latest } = renderBlock(['steps', 0, 'blocks', 0]);
    fireEvent.change(screen.getByLabelText('Question'), { target: { value: 'Which colour?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add an option' }));
    fireEvent.change(screen.getByLabelText('Option 2: name shown'), { target: { value: 'Blue' } });
    expect(getAt(latest(), ['steps', 0, 'blocks', 0, 'data'])).toEqual({
      path: 'fields.colour',
      label: 'Which colour?',
      options: [
        { name: 'Red', value: 'Red' },
        { name: 'Blue', value: 'Blue' },
      ],
    });
  });

  it('keeps the rules of its answer in formItems: a ticked validator adds the item, the last one unticked removes it', () => {
    const { latest } = renderBlock(['steps', 1, 'blocks', 0]);
    fireEvent.click(screen.getByLabelText('Required'));
    expect(getAt(latest(), ['formItems'])).toEqual([{ path: 'fields.why', validators: ['required'] }]);
    fireEvent.click(screen.getByLabelText('At most … characters'));
    expect(getAt(latest(), ['formItems', 0, 'validators'])).toEqual(['required', { name: 'maxLength', value: 200 }]);
    fireEvent.change(screen.getByLabelText('Characters at most'), { target: { value: '80' } });
    expect(getAt(latest(), ['formItems', 0, 'validators', 1])).toEqual({ name: 'maxLength', value: 80 });
    fireEvent.click(screen.getByLabelText('Required'));
    fireEvent.click(screen.getByLabelText('At most … characters'));
    expect(getAt(latest(), ['formItems'])).toEqual([]);
  });

  it('offers the rules that make sense for the kind of answer: a choice is required or not', () => {
    renderBlock(['steps', 0, 'blocks', 0]);
    // Required, beside the question (not in the folded rules): the one rule a choice takes.
    expect(screen.getByRole('group', { name: 'Rules for “Colour?”' }).querySelectorAll('input[type="checkbox"]')).toHaveLength(0);
    expect(screen.getByRole('checkbox', { name: 'Required: “Colour?”' }).closest('details')).toBeNull();
    expect(screen.queryByLabelText('An e-mail address')).toBeNull();
  });

  it('offers on every answer of the default page the rules the server takes, alone and together, and every such rule', () => {
    // Every kind of answer: texts, an e-mail address, a phone number, counts (followers), user names,
    // a choice, a multi-select, a yes/no.
    const page = rawDefaultConfig() as { steps: { blocks: unknown[] }[]; formItems: { path: string }[] };
    // Every platform's row: each platform's published user-name rule rules out rules of its own.
    const platformsBlock = page.steps.flatMap((step) => step.blocks).find((block) => (block as { component: string }).component === 'platforms') as {
      data: { platforms: { name: string }[] };
    };
    const asked = new Set(platformsBlock.data.platforms.map((platform) => platform.name));
    for (const name of PLATFORM_NAMES) if (!asked.has(name)) platformsBlock.data.platforms.push({ name });
    const refused: string[] = [];
    const offered = new Set<string>();
    /** The names of the validators the page sets on `answer`. */
    const setOn = (answer: string) =>
      ((page.formItems.find((item) => item.path === answer) as { validators?: unknown[] } | undefined)?.validators ?? []).map((spec) =>
        typeof spec === 'string' ? spec : (spec as { name: string }).name,
      );
    for (const answer of draftFields(page).keys()) {
      const others = page.formItems.filter((item) => item.path !== answer);
      const names = setOn(answer);
      // Each rule offered, set first, then every rule still offered beside it, as an editor would tick them.
      for (const first of offeredRules(page, answer, names).filter((name) => !names.includes(name))) {
        offered.add(`${answer}: ${first}`);
        const ticked = [...names];
        for (let next: string | undefined = first; next; next = offeredRules(page, answer, ticked).find((name) => !ticked.includes(name))) ticked.push(next);
        const validators = ticked.map((name) => (name === 'maxLength' ? { name, value: 50 } : name));
        for (const problem of checkDraft({ ...page, formItems: [...others, { path: answer, validators }] }, 'creators'))
          refused.push(`${answer} (${ticked.join(', ')}): ${problem.path}: ${problem.message}`);
      }
    }
    expect(refused).toEqual([]);
    // What the server takes is offered: at most so many characters on a phone number and on a multi-select.
    expect([...offered]).toEqual(expect.arrayContaining(['personalInfo.phone.subscriber: maxLength', 'fields.whichProducts: maxLength']));
    expect([...offered].filter((line) => /followers: (?!required)/.test(line))).toEqual([]);
    // Nothing an e-mail address contradicts on it, nor an e-mail address on a platform's user name.
    expect([...offered].filter((line) => /^personalInfo\.emailAddress: (email|digits|zip|handle|url)$/.test(line))).toEqual([]);
    expect([...offered].filter((line) => /^platforms\..*\.handle: email$/.test(line))).toEqual([]);
    // Nor what a platform's own rule never passes: a website address on an X name, digits on a Snapchat name.
    expect(
      [...offered].filter((line) =>
        /^platforms\.(twitter|twitch|pinterest|linkedin|reddit)\.handle: url$|^platforms\.snapchat\.handle: (digits|zip)$/.test(line),
      ),
    ).toEqual([]);
    expect([...offered]).toEqual(
      expect.arrayContaining(['platforms.facebook.handle: url', 'platforms.twitter.handle: digits', 'platforms.snapchat.handle: url']),
    );

    // The builder's checkboxes are those rules, on every block's answers, in the order of the answers.
    const shown: string[] = [];
    page.steps.forEach((step, s) =>
      step.blocks.forEach((_block, b) => {
        renderBlock(['steps', s, 'blocks', b], [], page);
        for (const group of screen.queryAllByRole('group', { name: /^Rules for / })) {
          // "Required" sits beside the question, outside the folded rules, named after the answer.
          const answer = group.querySelector('legend')!.textContent!.replace(/^Rules for /, '');
          // (One on a condition: "Required: …, while it is shown", ticked and fixed.)
          const beside = screen.queryAllByRole('checkbox').some((box) => box.getAttribute('aria-label')?.startsWith(`Required: ${answer}`)) ? ['Required'] : [];
          shown.push([...beside, ...[...group.querySelectorAll('input[type="checkbox"]')].map((box) => box.closest('label')?.textContent ?? '')].join(', '));
        }
        cleanup();
      }),
    );
    const expected = [...draftFields(page).keys()].map((answer) => {
      const names = setOn(answer);
      return VALIDATOR_NAMES.filter((name) => names.includes(name) || offeredRules(page, answer, names).includes(name))
        .map((name) => VALIDATOR_LABELS[name])
        .join(', ');
    });
    expect(shown).toEqual(expected);
  });

  it('stops offering a rule no answer could pass beside one just ticked, and offers it again once that one is unticked', () => {
    renderBlock(['steps', 1, 'blocks', 0]);
    const rules = () => [...screen.getByRole('group', { name: 'Rules for “Why?”' }).querySelectorAll('label')].map((label) => label.textContent);
    expect(rules()).toEqual(expect.arrayContaining(['Digits only', 'An e-mail address', 'A website address']));
    fireEvent.click(screen.getByLabelText('Digits only'));
    expect(rules()).not.toContain('An e-mail address');
    expect(rules()).not.toContain('A website address');
    fireEvent.click(screen.getByLabelText('Digits only'));
    expect(rules()).toEqual(expect.arrayContaining(['An e-mail address', 'A website address']));
  });

  it('offers a condition only on answers a condition can hide: not on a platform, the phone, the country or a yes/no answer', () => {
    const page = rawDefaultConfig() as { steps: { blocks: { component: string }[] }[] };
    const conditions = (component: string) => {
      const s = page.steps.findIndex((step) => step.blocks.some((block) => block.component === component));
      const b = page.steps[s]!.blocks.findIndex((block) => block.component === component);
      renderBlock(['steps', s, 'blocks', b], [], page);
      const found = screen.queryAllByText(/only when another answer/).map((element) => element.textContent ?? '');
      cleanup();
      return found;
    };
    expect(conditions('platforms')).toEqual([]);
    // The yes/no block's follow-up text can take a condition; its Yes or No cannot.
    expect(conditions('yesNo')).toEqual([expect.stringMatching(/, its follow-up only when another answer…$/)]);
    const personal = conditions('personalInfo');
    expect(personal.length).toBeGreaterThan(0);
    expect(personal.filter((text) => /phone|country/i.test(text))).toEqual([]);
  });

  it('sets a condition on another answer, with its options offered as values', () => {
    const { latest } = renderBlock(['steps', 1, 'blocks', 0]);
    fireEvent.click(screen.getByLabelText('Show “Why?” only when another answer…'));
    // The answers by their question and step, not their stored names; one "Hidden".
    expect([...(screen.getByLabelText('The answer') as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'Choose an answer…',
      '“Colour?” (step 1)',
    ]);
    expect([...(screen.getByLabelText('Until it holds, the question is') as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'Hidden',
      'Shown, but cannot be answered',
    ]);
    fireEvent.change(screen.getByLabelText('The answer'), { target: { value: 'fields.colour' } });
    fireEvent.change(screen.getByLabelText('Holds when it'), { target: { value: 'equals' } });
    expect(getAt(latest(), ['formItems', 0])).toEqual({ path: 'fields.why', validators: [], showOnCondition: { path: 'fields.colour', equals: 'Red' } });
    expect([...(screen.getByLabelText('Value') as HTMLSelectElement).options].map((option) => option.value)).toEqual(['Red']);
    // And what the checks make of it: nothing wrong (the answer is asked on an earlier step).
    const problems = checkDraft({ title: 'T', lang: 'en', pageId: 'p', signUpUrl: '/s', requestUrl: '', ...(latest() as object) }, 'p');
    expect(problems).toEqual([]);
  });

  it('shows a problem at its field by JSON path (aria-invalid, aria-describedby), or at the nearest enclosing one that has a field', () => {
    renderBlock(
      ['steps', 0, 'blocks', 0],
      [
        { path: 'steps[0].blocks[0].data.options[0].value', message: 'the option value "Red" is listed twice' },
        { path: 'steps[0].blocks[0].data.options[0].value.extra', message: 'deeper' },
        { path: 'steps[0].blocks[0].data.options', message: 'give at least 1 item(s)' },
      ],
    );
    const value = screen.getByLabelText('Option 1: value stored');
    expect(value.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(value.getAttribute('aria-describedby')!)?.textContent).toBe('the option value "Red" is listed twice · deeper');
    const options = document.getElementById(fieldId('steps[0].blocks[0].data.options'))!;
    expect(options.tagName).toBe('FIELDSET');
    expect(document.getElementById(options.getAttribute('aria-describedby')!)?.textContent).toBe('give at least 1 item(s)');
  });
});

describe("the configuration's checks in the browser", () => {
  it('are the shared rulebook: the schema, the semantic checks and what a stored page must ask, each with its JSON path', () => {
    const problems = checkDraft({ title: '', lang: 'en', pageId: 'p', signUpUrl: '/s', steps: SELECT_DRAFT.steps }, 'p');
    expect(problems.map((problem) => problem.path)).toEqual(['title']);
    const stored = checkDraft({ title: 'T', lang: 'en', pageId: 'p', signUpUrl: '/s', steps: SELECT_DRAFT.steps }, 'p');
    expect(stored.map((problem) => problem.path)).toEqual(['steps', 'steps', 'steps']);
    expect(stored[0]!.message).toMatch(/firstName/);
  });
});

describe('the keyboard drag of a step or block', () => {
  type Context = Parameters<typeof oneStepCoordinates>[1]['context'];
  /** The rects of a vertical list whose elements have the heights given (10 px apart, the first at y 0). */
  const rectsOf = (heights: number[]) => {
    let top = 0;
    return heights.map((height) => {
      const rect = { top, bottom: top + height, height, left: 0, right: 300, width: 300 };
      top += height + 10;
      return rect;
    });
  };
  /** Where `code` moves element `at` of a list of `heights`, picked up and not moved yet. */
  const pressed = (code: string, heights: number[], at: number) => {
    const rects = rectsOf(heights);
    const containers = rects.map((_, index) => ({ id: `item-${index}`, disabled: false })).reverse();
    const context = {
      collisionRect: rects[at],
      droppableRects: new Map(rects.map((rect, index) => [`item-${index}`, rect])),
      droppableContainers: { getEnabled: () => containers },
      over: { id: `item-${at}` },
    } as unknown as Context;
    return {
      rects,
      coordinates: oneStepCoordinates(new KeyboardEvent('keydown', { code, cancelable: true }), {
        active: `item-${at}`,
        currentCoordinates: { x: 0, y: rects[at]!.top },
        context,
      }),
    };
  };

  it("moves the dragged element one position a press, its centre onto the next one's, however tall either is", () => {
    // A tall step (its blocks open) under a short one: Up puts its centre on the short one's, not past it.
    const up = pressed('ArrowUp', [600, 200, 1500], 2);
    expect(up.coordinates).toEqual({ x: 0, y: up.rects[1]!.top + 100 - 750 });
    const down = pressed('ArrowDown', [600, 200, 1500], 0);
    expect(down.coordinates).toEqual({ x: 0, y: down.rects[1]!.top + 100 - 300 });
    // Past either end, nowhere; other keys are not its.
    expect(pressed('ArrowUp', [600, 200, 1500], 0).coordinates).toBeUndefined();
    expect(pressed('ArrowDown', [600, 200, 1500], 2).coordinates).toBeUndefined();
    expect(pressed('ArrowLeft', [600, 200, 1500], 1).coordinates).toBeUndefined();
  });
});

describe('removing a question (a newcomer’s review)', () => {
  const draft = {
    steps: [
      { name: 'One', blocks: [{ component: 'select', data: { path: 'fields.colour', label: 'Which colour', options: [{ name: 'Red', value: 'Red' }] } }] },
      {
        name: 'Two',
        blocks: [
          { component: 'textField', data: { path: 'fields.why', label: 'Why' } },
          { component: 'textField', data: { path: 'fields.more', label: 'More' } },
        ],
      },
    ],
    formItems: [
      { path: 'fields.colour', validators: ['required'] },
      { path: 'fields.why', validators: [], showOnCondition: { path: 'fields.colour', equals: 'Red' } },
      { path: 'fields.more', validators: ['required'], showOnCondition: { path: 'fields.colour', filled: true } },
      { path: 'fields.gone', validators: ['required'] },
    ],
  };

  it('takes the rules of the answers it asked, and the conditions on them, and nothing else', () => {
    const removal = removeElement(draft, ['steps', 0, 'blocks'], 0);
    expect(removal.answers).toEqual(['fields.colour']);
    expect(removal.rules).toBe(1);
    expect(removal.conditions).toBe(2);
    // The item of `fields.why` had only its condition: it goes; `fields.more` keeps its rule; the rule left behind before stays.
    expect(getAt(removal.draft, ['formItems'])).toEqual([
      { path: 'fields.more', validators: ['required'] },
      { path: 'fields.gone', validators: ['required'] },
    ]);
    expect(getAt(removal.draft, ['steps', 0, 'blocks'])).toEqual([]);
    expect(removalExtras(removal)).toBe(', with the rules of its answer and the 2 conditions of other questions on it');
  });

  it('takes a whole step’s answers, and leaves the rules alone when the removed element asked nothing', () => {
    const step = removeElement(draft, ['steps'], 1);
    expect(step.answers).toEqual(['fields.why', 'fields.more']);
    expect(getAt(step.draft, ['formItems'])).toEqual([
      { path: 'fields.colour', validators: ['required'] },
      { path: 'fields.gone', validators: ['required'] },
    ]);
    const option = removeElement(draft, ['steps', 0, 'blocks', 0, 'data', 'options'], 0);
    expect(option.rules + option.conditions).toBe(0);
    expect(getAt(option.draft, ['formItems'])).toBe(draft.formItems);
    expect(removalExtras(option)).toBe('');
  });
});

describe('a page’s state now (a newcomer’s review)', () => {
  const now = Date.parse('2026-12-04T12:00:00Z');
  const page = { status: 'published' as const, publishedVersion: 1, opensAt: null, closesAt: null, maxApplications: null, applications: 2 };
  it('says a published page is closed by its cap or its dates, or not open yet, and why', () => {
    expect(pageState(page, now)).toEqual({ badge: 'published', text: 'Published: open', open: true });
    expect(pageState({ ...page, maxApplications: 2 }, now)).toEqual({ badge: 'closed', text: 'Closed: 2 of 2 applications', open: false });
    expect(pageState({ ...page, maxApplications: 3 }, now).open).toBe(true);
    expect(pageState({ ...page, closesAt: '2026-12-03T09:00:00Z' }, now).text).toMatch(/^Closed since /);
    expect(pageState({ ...page, opensAt: '2026-12-05T09:00:00Z' }, now)).toMatchObject({ badge: 'scheduled', open: false });
    expect(pageState({ ...page, opensAt: '2026-12-05T09:00:00Z' }, now).text).toMatch(/^Published, not open yet: opens /);
    expect(pageState({ ...page, status: 'closed' }, now).text).toBe('Closed by an editor');
    expect(pageState({ ...page, status: 'draft', publishedVersion: null }, now).text).toBe('Draft: never published');
  });

  it('is read again every 30 s while the window is used, and not once it was left unused for 5 minutes (its session may then end)', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(Date.parse('2026-12-03T09:00:00Z'));
      fireEvent.keyDown(window, { key: 'a' });
      expect(refreshWhileUsed()).toBe(PAGE_STATE_REFRESH_MS);
      vi.setSystemTime(Date.parse('2026-12-03T09:04:59Z'));
      expect(refreshWhileUsed()).toBe(PAGE_STATE_REFRESH_MS);
      vi.setSystemTime(Date.parse('2026-12-03T09:05:00Z'));
      expect(refreshWhileUsed()).toBe(false);
      fireEvent.pointerDown(document.body);
      expect(refreshWhileUsed()).toBe(PAGE_STATE_REFRESH_MS);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is worked out again as time passes while it is shown: a page closes at its closing time with nothing stored changing', async () => {
    vi.useFakeTimers();
    try {
      let time = Date.parse('2026-12-03T08:59:00Z');
      const clock = () => time;
      const closing = { ...page, closesAt: '2026-12-03T09:00:00Z' };
      function Badge() {
        return <p>{usePageState(closing, 1000, clock).text}</p>;
      }
      render(<Badge />);
      expect(screen.getByText('Published: open')).toBeDefined();
      time += 60_000;
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(screen.getByText(/^Closed since /)).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('places and answers as the team names them (a newcomer’s review)', () => {
  const draft = {
    steps: [
      { name: 'One', blocks: [{ component: 'personalInfo', data: { fields: ['firstName', 'phone'] } }] },
      {
        name: 'Two',
        blocks: [
          { component: 'html', data: { html: '<h1>Two</h1>' } },
          { component: 'select', data: { path: 'fields.colour', label: '<b>Which</b> colour?', options: [{ name: 'Red', value: 'Red' }] } },
          { component: 'yesNo', data: { path: 'fields.campaign', label: 'Taken part before?', textLabel: 'Tell us' } },
        ],
      },
    ],
    formItems: [
      { path: 'fields.colour', validators: [], showOnCondition: { path: 'fields.campaign.value', equals: true } },
      { path: 'fields.gone', validators: ['required'] },
    ],
  };

  it('names an answer by its question and step, a personal detail by its label', () => {
    const names = answerNames(draft);
    expect(names.get('personalInfo.firstName')).toBe('First name (step 1)');
    expect(names.get('personalInfo.phone.subscriber')).toBe('Phone number (step 1)');
    expect(names.get('fields.colour')).toBe('“Which colour?” (step 2)');
    expect(names.get('fields.campaign.value')).toBe('“Taken part before?” (step 2)');
    expect(names.get('fields.campaign.text')).toBe('“Taken part before?”, its follow-up (step 2)');
  });

  it('names the field of a problem by its place and label, not its JSON path', () => {
    expect(placeOf('steps[1].blocks[1].data.path', draft)).toBe('Step 2, block 2 (Choice question): Answer name');
    expect(placeOf('steps[1].blocks[1].data.options[0].value', draft)).toBe('Step 2, block 2 (Choice question): Option 1, value stored');
    expect(placeOf('steps[0].name', draft)).toBe('Step 1: name');
    expect(placeOf('formItems[0].showOnCondition.path', draft)).toBe('Rules of “Which colour?” (step 2): condition answer tested');
    expect(placeOf('formItems[1].path', draft)).toBe('Rules of “fields.gone”, which no block asks: answer');
    expect(placeOf('styleConfig.theme.primary', draft)).toBe('Theme: primary colour');
    expect(placeOf('title', draft)).toBe('Title');
    expect(placeOf('messages.closed', draft)).toBe('Messages: Page closed (shown instead of the form)');
    expect(placeOf('(root)', draft)).toBe('The whole page (JSON)');
    // The Messages tab's labels: a message by what it is, not its key.
    expect(messageLabel('required')).toBe('Error: an answer is missing');
    expect(messageLabel('selectPlaceholder')).toBe('Select placeholder');
  });
});

describe('the keyboard drag’s announcements (decision 021’s outside attack on the submit path’s edges)', () => {
  afterEach(() => vi.restoreAllMocks());
  it('say the pick-up first, with the place it starts from, and "over" only once the place changes', async () => {
    const draft = {
      steps: [
        { name: 'One', blocks: [] },
        { name: 'Two', blocks: [] },
        { name: 'Thanks', blocks: [] },
      ],
    };
    // happy-dom lays nothing out: each list element (and what is inside it) is 100 px high, 10 px below the one before.
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const item = this.closest('[data-list-item]');
      const top = item ? [...item.parentElement!.children].indexOf(item) * 110 : 0;
      return DOMRect.fromRect({ x: 0, y: top, width: 300, height: item ? 100 : 0 });
    });
    render(
      <EditorProvider draft={draft} change={() => undefined} readOnly={false} problems={[]}>
        <StepsEditor keys={new ListKeys()} />
      </EditorProvider>,
    );
    // Every text dnd-kit's live regions take, in order (what a screen reader is given).
    const regions = () => [...document.querySelectorAll('[id^="DndLiveRegion"]')];
    const said: string[] = [];
    const observer = new MutationObserver(() => {
      for (const text of regions().map((region) => region.textContent ?? '')) if (text !== '' && said.at(-1) !== text) said.push(text);
    });
    observer.observe(document.body, { childList: true, characterData: true, subtree: true });
    const handle = screen.getByRole('button', { name: 'Drag to reorder: step 2, Two' });
    handle.focus();
    await act(async () => {
      fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
      // dnd-kit's "over" follows in an effect after the pick-up's render: let both run.
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(said).toEqual(['Picked up step 2, Two, at position 2 of 3. Use the arrow keys to move it, Space to drop it, Escape to cancel.']);
    // The sensor takes the arrows from a timer started at the pick-up: press until the move is said.
    await vi.waitFor(() => {
      fireEvent.keyDown(document.activeElement!, { code: 'ArrowDown', key: 'ArrowDown' });
      expect(said.at(-1)).toBe('step 2, Two is over position 3 of 3.');
    });
    observer.disconnect();
    expect(said).toEqual([
      'Picked up step 2, Two, at position 2 of 3. Use the arrow keys to move it, Space to drop it, Escape to cancel.',
      'step 2, Two is over position 3 of 3.',
    ]);
  });
});

describe('the age screen in the Page tab', () => {
  it('is off until turned on; on, it sets the minimum age (a number or by country), the adult age and what minors meet', async () => {
    const { AgeScreenSettings } = await import('./age-screen-settings');
    let latest: unknown = rawDefaultConfig();
    function Harness() {
      const [draft, setDraft] = useState<unknown>(latest);
      const change = useCallback((at: DraftPath, value: unknown) => setDraft((before: unknown) => (latest = setAt(before, at, value))), []);
      return (
        <EditorProvider draft={draft} change={change} readOnly={false} problems={[]}>
          <AgeScreenSettings />
        </EditorProvider>
      );
    }
    render(<Harness />);
    const on = screen.getByLabelText('Ask the month and year of birth before anything about the person');
    expect((on as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByLabelText('Minimum age')).toBeNull();
    fireEvent.click(on);
    expect(getAt(latest, ['ageScreen'])).toEqual({ minimumAge: 13 });
    fireEvent.change(screen.getByLabelText('Minimum age'), { target: { value: 'byCountry' } });
    fireEvent.change(screen.getByLabelText('Minors'), { target: { value: 'guardian' } });
    fireEvent.change(screen.getByLabelText('Adult age'), { target: { value: '18' } });
    expect(getAt(latest, ['ageScreen'])).toEqual({ minimumAge: 'byCountry', minors: 'guardian', adultAge: 18 });
    fireEvent.change(screen.getByLabelText('Minimum age'), { target: { value: '16' } });
    expect(getAt(latest, ['ageScreen', 'minimumAge'])).toBe(16);
    fireEvent.click(on);
    expect(getAt(latest, ['ageScreen'])).toBeUndefined();
  });
});
