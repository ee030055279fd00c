import { afterEach, describe, expect, it } from 'vitest';
import { parseWizardConfig, type WizardConfigInput } from '../../shared/config';
import { GLYPH_PROBE_CLASS, REGIONAL_INDICATORS } from '../controls/glyph-warm-up';
import { warmUpTasks } from './registry';

const probes = () => [...document.querySelectorAll<HTMLElement>(`.${GLYPH_PROBE_CLASS}`)];
afterEach(() => probes().forEach((probe) => probe.remove()));

describe('warm-up tasks (issue 12)', () => {
  it('the personal info block with a phone or a country warms up every flag character first, before its lists', () => {
    const config = (fields: string[]) => {
      const result = parseWizardConfig({
        title: 'Test',
        lang: 'en',
        pageId: 'test',
        signUpUrl: 'https://example.com',
        steps: [
          { name: 'Hello', blocks: [{ component: 'html', data: { html: '<h1>Hello</h1>' } }] },
          { name: 'You', blocks: [{ component: 'personalInfo', data: { fields } }] },
        ],
        formItems: [],
      } as WizardConfigInput);
      if (!result.config) throw new Error(JSON.stringify(result.problems));
      return result.config;
    };
    for (const fields of [['firstName', 'phone'], ['countryCode']]) {
      const [first] = warmUpTasks(config(fields));
      first!();
      expect(probes().map((probe) => probe.textContent)).toEqual([REGIONAL_INDICATORS]);
      probes().forEach((probe) => probe.remove());
    }
    expect(warmUpTasks(config(['firstName', 'lastName']))).toEqual([]);
  });

});
