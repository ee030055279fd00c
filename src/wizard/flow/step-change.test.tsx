import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseWizardConfig } from '../../shared/config';
import type { TextFieldProps } from '../controls/text-field';
import { Wizard } from '../engine/wizard';
import { browserServices } from '../services/browser';
import * as engine from '../wizard-engine';

// Counts each text field's renders, by id (the real TextField renders them).
const renders = vi.hoisted(() => new Map<string, number>());
vi.mock('../controls/text-field', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../controls/text-field')>();
  return {
    ...actual,
    TextField: (props: TextFieldProps) => {
      renders.set(props.id, (renders.get(props.id) ?? 0) + 1);
      return createElement(actual.TextField, props);
    },
  };
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  renders.clear();
  sessionStorage.clear();
});

function config() {
  const result = parseWizardConfig({
    title: 'Test page',
    lang: 'en',
    pageId: 'test',
    requestUrl: '',
    signUpUrl: 'https://example.com/sign-up',
    drafts: 'session',
    steps: [
      { name: 'Hello', blocks: [{ component: 'html', data: { html: '<h1>Hello</h1>' } }] },
      {
        name: 'Name',
        blocks: [
          { component: 'html', data: { html: '<h2>Your name</h2>' } },
          { component: 'textField', data: { path: 'fields.firstName', label: 'First name' } },
          { component: 'textField', data: { path: 'fields.dream', label: 'Dream' } },
        ],
      },
      { name: 'Thanks', blocks: [{ component: 'html', data: { html: '<h2>Thanks</h2>' } }] },
    ],
    formItems: [{ path: 'fields.firstName', validators: ['required'] }],
  });
  if (!result.config) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

const current = () => document.querySelector('[aria-current="step"] .step-label')?.textContent;

/** Renders the wizard and waits until React has rendered the next step ahead, hidden. */
async function renderWithStepAhead() {
  render(<Wizard services={browserServices} engine={engine} config={config()} redirect={() => undefined} />);
  await waitFor(() => expect(document.querySelectorAll('.step-ahead input')).toHaveLength(2));
  return document.querySelector<HTMLInputElement>('.step-ahead input')!;
}

describe('Welcome → step 1 (phone speed)', () => {
  it('reveals the step rendered ahead without rendering its controls again', async () => {
    const input = await renderWithStepAhead();
    const before = new Map(renders);
    expect(before.get('fields-firstName')).toBeGreaterThan(0);
    // fireEvent runs the click, React's commit and its effects synchronously, as a browser's event does.
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Continue' })));
    expect(current()).toBe('Name');
    expect(screen.getByLabelText('First name')).toBe(input);
    expect(input.closest('.step')).not.toBeNull();
    expect(renders).toEqual(before);
    // The revealed controls are connected to the form: validation reaches them and focuses the first.
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Submit application' })));
    await screen.findByText('This field is required');
    expect(document.activeElement).toBe(input);
  });

  it("saves the step change's draft after the paint, not inside the Continue event", async () => {
    await renderWithStepAhead();
    await waitFor(() => expect(sessionStorage.getItem('wizard:test:draft')).toContain('"step":0'));
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Continue' })));
    expect(current()).toBe('Name');
    expect(sessionStorage.getItem('wizard:test:draft')).toContain('"step":0');
    await waitFor(() => expect(sessionStorage.getItem('wizard:test:draft')).toContain('"step":1'));
  });
});
