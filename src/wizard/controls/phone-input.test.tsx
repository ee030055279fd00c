import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flagUrl } from '../../shared/data/flags';
import { DEFAULT_MESSAGES, selectTexts } from '../../shared/messages';
import { PhoneInput, type PhoneValue } from './phone-input';
import { layOutListboxes } from '../../../tests/support/listbox-layout';

const TEXTS = selectTexts(DEFAULT_MESSAGES);
/** The regional indicator symbols 🇦 to 🇿, of which every flag emoji is a pair. */
const REGIONAL_INDICATOR = /[\u{1F1E6}-\u{1F1FF}]/u;

afterEach(cleanup);
beforeEach(layOutListboxes);
afterEach(() => vi.restoreAllMocks());

function Phone({ initial = { countryCode: '1', subscriber: '' }, country }: { initial?: PhoneValue; country?: string }) {
  const [value, setValue] = useState<PhoneValue>(initial);
  return (
    <>
      <PhoneInput
        id="phone"
        lang="en"
        value={value}
        country={country}
        labels={{ callingCode: 'Country code', subscriber: 'Phone number' }}
        errors={{}}
        texts={TEXTS}
        onCallingCodeChange={(countryCode) => setValue((current) => ({ ...current, countryCode }))}
        onSubscriberChange={(subscriber) => setValue((current) => ({ ...current, subscriber }))}
      />
      <button type="button">next</button>
    </>
  );
}

const callingCode = () => screen.getByRole('combobox', { name: 'Country code' }) as HTMLInputElement;
/** The closed box's flag. */
const boxFlag = () => document.querySelector<HTMLImageElement>('.phone-calling-code .select-adornment img');
/** The text that describes the box to assistive technology. */
const description = () =>
  (callingCode().getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

describe('PhoneInput: flags and the calling code', () => {
  it('the closed box shows the flag as an SVG image and the code alone; the country is its description', () => {
    render(<Phone />);
    expect(callingCode().value).toBe('+1');
    expect(description()).toBe('+1 United States');
    const flag = boxFlag()!;
    expect(flag.getAttribute('src')).toBe(flagUrl('US'));
    expect(flag.getAttribute('src')).toMatch(/\/us\.svg$/);
    // Decorative, sized ahead (no layout shift), fetched only when shown.
    expect(flag.getAttribute('alt')).toBe('');
    expect(flag.closest('[aria-hidden="true"]')).not.toBeNull();
    expect([flag.getAttribute('width'), flag.getAttribute('height')]).toEqual(['20', '15']);
    expect(flag.getAttribute('loading')).toBe('lazy');
    expect(flag.getAttribute('decoding')).toBe('async');
    expect(document.body.textContent).not.toMatch(REGIONAL_INDICATOR);
  });

  it("shows the number's own country among those sharing its code, and codes as the data has them (+1-684)", () => {
    render(<Phone country="CA" />);
    expect(callingCode().value).toBe('+1');
    expect(boxFlag()!.getAttribute('src')).toBe(flagUrl('CA'));
    expect(description()).toBe('+1 Canada');
    cleanup();
    render(<Phone initial={{ countryCode: '1-684', subscriber: '' }} />);
    expect(callingCode().value).toBe('+1-684');
    expect(boxFlag()!.getAttribute('src')).toBe(flagUrl('AS'));
    expect(description()).toBe('+1-684 American Samoa');
  });

  it("shows a shared code's main country while its number's own is not known: +44 is the United Kingdom, not Guernsey first by name", () => {
    // A draft restored with +44 before the phone library has loaded (or with a number too short to
    // tell): no country given, so the code's main country (decision 019), never the first by name.
    render(<Phone initial={{ countryCode: '44', subscriber: '' }} />);
    expect(callingCode().value).toBe('+44');
    expect(boxFlag()!.getAttribute('src')).toBe(flagUrl('GB'));
    expect(description()).toBe('+44 United Kingdom');
    cleanup();
    render(<Phone initial={{ countryCode: '7', subscriber: '' }} />);
    expect(boxFlag()!.getAttribute('src')).toBe(flagUrl('RU'));
  });

  it('the list shows each flag with the code and the country name; no emoji anywhere; a pick shows its flag and code', async () => {
    const user = userEvent.setup();
    render(<Phone />);
    await user.click(callingCode());
    const options = screen.getAllByRole('option');
    expect(options.length).toBeGreaterThan(5);
    expect(options[0]!.textContent).toBe('+1 United States');
    expect(options[0]!.querySelector('img')!.getAttribute('src')).toBe(flagUrl('US'));
    for (const option of options) {
      const img = option.querySelector('img.flag');
      expect(img?.getAttribute('alt')).toBe('');
      expect(img?.getAttribute('loading')).toBe('lazy');
    }
    // The only images are the flags of the options rendered (and the box's, hidden while open).
    expect(document.querySelectorAll('img').length).toBe(options.length);
    expect(document.body.textContent).not.toMatch(REGIONAL_INDICATOR);
    await user.clear(callingCode());
    await user.type(callingCode(), 'kingdom');
    await user.click(screen.getByRole('option', { name: '+44 United Kingdom' }));
    expect(callingCode().value).toBe('+44');
    expect(boxFlag()!.getAttribute('src')).toBe(flagUrl('GB'));
    expect(description()).toBe('+44 United Kingdom');
    // Leaving with a search typed that matches nothing shows the code again, not the search. (A
    // click in the box selects the code shown: what is typed replaces it.)
    await user.type(callingCode(), 'zzz');
    await user.click(screen.getByRole('button', { name: 'next' }));
    expect(callingCode().value).toBe('+44');
    // Leaving with a search that matches picks its best match, as Tab does.
    await user.type(callingCode(), 'fra');
    await user.click(screen.getByRole('button', { name: 'next' }));
    expect(callingCode().value).toBe('+33');
  });

  it("takes a shared code's main country for its code, first in the search: 44 is the United Kingdom, 7 Russia (decision 019)", async () => {
    const user = userEvent.setup();
    render(<Phone />);
    for (const [typed, name] of [
      ['+44', '+44 United Kingdom'],
      ['7', '+7 Russia'],
      ['44', '+44 United Kingdom'],
      ['61', '+61 Australia'],
    ] as const) {
      await user.clear(callingCode());
      await user.type(callingCode(), typed);
      expect(screen.getAllByRole('option')[0]!.textContent).toBe(name);
      await user.keyboard('{Enter}');
      expect(callingCode().value).toBe(`+${typed.replace('+', '')}`);
      expect(description()).toBe(name);
    }
  });
});
