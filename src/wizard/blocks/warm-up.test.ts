import { describe, expect, it } from 'vitest';
import { parseWizardConfig, type WizardConfigInput } from '../../shared/config';
import { getCountries } from '../../shared/data/countries';
import { callingCodeSelectOptions } from '../controls/phone-input';
import { warmUpTasks } from './registry';

describe('warm-up tasks', () => {
  it('the personal info block with a phone or a country builds its lists ahead, the very arrays its selects show; nothing else is added to the page', () => {
    const config = (fields: string[]) => {
      const result = parseWizardConfig({
        title: 'Test',
        lang: 'en',
        pageId: 'test',
        signUpUrl: 'https://example.com',
        steps: [
          { name: 'Hello', blocks: [{ component: 'html', data: { html: '<h1>Hello</h1>' } }] },
          { name: 'You', blocks: [{ component: 'personalInfo', data: { fields } }] },
          { name: 'Thanks', blocks: [] },
        ],
        formItems: [],
      } as WizardConfigInput);
      if (!result.config) throw new Error(JSON.stringify(result.problems));
      return result.config;
    };
    const body = document.body.innerHTML;
    const phone = warmUpTasks(config(['firstName', 'phone'])).map((task) => task());
    expect(phone[0]).toBe(getCountries('en'));
    expect(phone).toContain(callingCodeSelectOptions('en'));
    const country = warmUpTasks(config(['countryCode'])).map((task) => task());
    expect(country[0]).toBe(getCountries('en'));
    expect(country).toHaveLength(2);
    // The flags are images, fetched when shown; no font is looked for ahead of them.
    expect(document.body.innerHTML).toBe(body);
    expect(warmUpTasks(config(['firstName', 'lastName']))).toEqual([]);
  });
});
