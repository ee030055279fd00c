import { readFileSync } from 'node:fs';
import { URL as NodeURL } from 'node:url';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countryOptions, getCountries } from '../../shared/data/countries';
import { MENU_MAX_HEIGHT_PX, Select, WINDOWED_ABOVE, filterOptions, type Option } from './select';
import { DEFAULT_MESSAGES, selectTexts } from '../../shared/messages';
import { layOutListboxes } from '../../../tests/support/listbox-layout';

const TEXTS = selectTexts(DEFAULT_MESSAGES);

afterEach(cleanup);

const PRODUCTS: Option[] = [
  { name: 'Thinking Putty', value: 'putty' },
  { name: 'Slime Charmers', value: 'slime' },
  { name: 'Land of Dough', value: 'dough' },
];

function Multi({ maxLength, initial = [] }: { maxLength?: number; initial?: string[] }) {
  const [value, setValue] = useState<string[]>(initial);
  return (
    <>
      <Select texts={TEXTS} id="products" label="Products" options={PRODUCTS} multiple maxLength={maxLength} value={value} onChange={setValue} />
      <output data-testid="value">{value.join(',')}</output>
    </>
  );
}

function Single() {
  const [value, setValue] = useState<string>();
  return (
    <>
      <Select texts={TEXTS} id="often" label="How often" options={PRODUCTS} value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('filterOptions (requirements §5 search)', () => {
  it('is a case-insensitive substring match on the name', () => {
    expect(filterOptions(PRODUCTS, 'PUTTY').map((o) => o.value)).toEqual(['putty']);
    expect(filterOptions(PRODUCTS, 'ar').map((o) => o.value)).toEqual(['slime']);
    expect(filterOptions(PRODUCTS, 'I').map((o) => o.value)).toEqual(['putty', 'slime']);
    expect(filterOptions(PRODUCTS, '')).toHaveLength(3);
    expect(filterOptions(PRODUCTS, 'zzz')).toEqual([]);
  });

  it('ranks names that start with the term first, then a word that starts with it, then the rest', () => {
    const countries = ['Algeria', 'Germany', 'Niger', 'Nigeria', 'Saint Germain', 'Herzegovina'].map((name) => ({ name, value: name }));
    expect(filterOptions(countries, 'ger').map((o) => o.value)).toEqual(['Germany', 'Saint Germain', 'Algeria', 'Niger', 'Nigeria']);
    const codes = ['+1 United States', '+44 United Kingdom', '+244 Angola', '+49 Germany'].map((name) => ({ name, value: name }));
    expect(filterOptions(codes, '44').map((o) => o.value)).toEqual(['+44 United Kingdom', '+244 Angola']);
    expect(filterOptions(codes, 'king').map((o) => o.value)).toEqual(['+44 United Kingdom']);
    // A code starts its name after the "+": +44 before +1-441 (outside review).
    const shared = ['+1-441 Bermuda', '+44 United Kingdom'].map((name) => ({ name, value: name }));
    expect(filterOptions(shared, '44').map((o) => o.value)).toEqual(['+44 United Kingdom', '+1-441 Bermuda']);
    // Among equal matches the primary option comes first: a shared code's main country.
    const sharing = [
      { name: '+44 Guernsey', value: 'GG' },
      { name: '+44 Jersey', value: 'JE' },
      { name: '+44 United Kingdom', value: 'GB', primary: true },
      { name: '+1-441 Bermuda', value: 'BM', primary: true },
    ];
    expect(filterOptions(sharing, '44').map((o) => o.value)).toEqual(['GB', 'GG', 'JE', 'BM']);
  });

  it('finds an option by its keywords too, a whole word first: "uk" is the United Kingdom before Ukraine, "3" March', () => {
    const countries = countryOptions('en');
    expect(filterOptions(countries, 'uk')[0]?.value).toBe('GB');
    expect(filterOptions(countries, 'UK').map((o) => o.value)).toContain('UA');
    expect(filterOptions(countries, 'usa')[0]?.value).toBe('US');
    expect(filterOptions(countries, 'us')[0]?.value).toBe('US');
    const months = ['January', 'February', 'March', 'October', 'November'].map((name, index) => {
      const number = [1, 2, 3, 10, 11][index]!;
      return { name, value: String(number).padStart(2, '0'), keywords: [String(number), String(number).padStart(2, '0')] };
    });
    expect(filterOptions(months, '3').map((o) => o.name)).toEqual(['March']);
    expect(filterOptions(months, '03').map((o) => o.name)).toEqual(['March']);
    expect(filterOptions(months, '1').map((o) => o.name)).toEqual(['January', 'October', 'November']);
    // Without keywords, as before: names only.
    expect(filterOptions(months, 'ber').map((o) => o.name)).toEqual(['October', 'November']);
  });

  it('takes hyphens, apostrophes, dots and spaces alike', () => {
    const countries = ['Royaume-Uni', 'Côte d’Ivoire', 'St. Lucia', 'Guinée-Bissau'].map((name) => ({ name, value: name }));
    expect(filterOptions(countries, 'royaume uni').map((o) => o.value)).toEqual(['Royaume-Uni']);
    expect(filterOptions(countries, "cote d'ivoire").map((o) => o.value)).toEqual(['Côte d’Ivoire']);
    expect(filterOptions(countries, 'st lucia').map((o) => o.value)).toEqual(['St. Lucia']);
    expect(filterOptions(countries, 'guinee  bissau').map((o) => o.value)).toEqual(['Guinée-Bissau']);
    const codes = ['+1-684 American Samoa', '+1 United States'].map((name) => ({ name, value: name }));
    expect(filterOptions(codes, '1-684').map((o) => o.value)).toEqual(['+1-684 American Samoa']);
    expect(filterOptions(codes, '684').map((o) => o.value)).toEqual(['+1-684 American Samoa']);
    expect(filterOptions(countries, 'cote d‘ivoire').map((o) => o.value)).toEqual(['Côte d’Ivoire']);
    // Punctuation alone searches for nothing: every option.
    expect(filterOptions([...countries, { name: 'France', value: 'France' }], ' - ')).toHaveLength(5);
  });

  it('ignores accents and case, in the page language', () => {
    const places = ['Côte d’Ivoire', 'Curaçao', 'Réunion', 'Åland Islands'].map((name) => ({ name, value: name }));
    expect(filterOptions(places, 'cote').map((o) => o.value)).toEqual(['Côte d’Ivoire']);
    expect(filterOptions(places, 'CURACAO').map((o) => o.value)).toEqual(['Curaçao']);
    expect(filterOptions(places, 'réu').map((o) => o.value)).toEqual(['Réunion']);
    expect(filterOptions(places, 'aland').map((o) => o.value)).toEqual(['Åland Islands']);
    // Turkish lower case: İ is i with its dot; in English the dotted capital lowers to i + a dot.
    const cities = [{ name: 'İzmir', value: 'izmir' }];
    expect(filterOptions(cities, 'izmir', 'tr').map((o) => o.value)).toEqual(['izmir']);
  });
});

describe('Select', () => {
  it('single: placeholders, picks one and closes', async () => {
    const user = userEvent.setup();
    render(<Single />);
    const input = screen.getByRole('combobox', { name: 'How often' });
    expect(input.getAttribute('placeholder')).toBe('Select Option');
    await user.click(input);
    expect(input.getAttribute('placeholder')).toBe('Search...');
    await user.click(screen.getByRole('option', { name: 'Slime Charmers' }));
    expect(screen.getByTestId('value').textContent).toBe('slime');
    expect(screen.queryByRole('option')).toBeNull();
    expect((input as HTMLInputElement).value).toBe('Slime Charmers');
  });

  it("shows 'No results found' when nothing matches", async () => {
    const user = userEvent.setup();
    render(<Single />);
    await user.type(screen.getByRole('combobox', { name: 'How often' }), 'zzz');
    expect(screen.getByText('No results found')).toBeTruthy();
    // No empty list framed above the text.
    expect(screen.getByRole('listbox', { hidden: true }).hidden).toBe(true);
    expect(screen.queryAllByRole('option')).toHaveLength(0);
  });

  it('keyboard: arrows move, Enter picks, Escape closes', async () => {
    const user = userEvent.setup();
    render(<Single />);
    const input = screen.getByRole('combobox', { name: 'How often' });
    await user.click(input);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(screen.getByTestId('value').textContent).toBe('slime');
    await user.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('Escape and leaving never keep a stale search or silently clear the pick (WAI-ARIA APG)', async () => {
    const user = userEvent.setup();
    render(
      <>
        <Single />
        <button type="button">next</button>
      </>,
    );
    const input = screen.getByRole('combobox', { name: 'How often' }) as HTMLInputElement;
    await user.click(input);
    await user.click(screen.getByRole('option', { name: 'Slime Charmers' }));
    // A search typed, then Escape: the list closes and the chosen name comes back.
    await user.clear(input);
    await user.type(input, 'thin');
    await user.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.value).toBe('Slime Charmers');
    // Escape on the closed list keeps the pick (downshift would clear it).
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('value').textContent).toBe('slime');
    expect(input.value).toBe('Slime Charmers');
    // A search typed, then Tab away: the chosen name again, not the search.
    await user.clear(input);
    await user.type(input, 'zzz');
    await user.tab();
    expect(screen.getByTestId('value').textContent).toBe('slime');
    expect(input.value).toBe('Slime Charmers');
    // Enter on no option closes the list: the chosen name again (outside review: "44" stayed).
    await user.click(input);
    await user.clear(input);
    await user.type(input, 'zzz');
    await user.keyboard('{Enter}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.value).toBe('Slime Charmers');
    // After Escape the name is selected, as on focus: typing starts a new search (not "Slime Charmersth").
    await user.keyboard('{Escape}');
    await waitFor(() => expect([input.selectionStart, input.selectionEnd]).toEqual([0, 'Slime Charmers'.length]));
    await user.keyboard('th');
    expect(input.value).toBe('th');
    expect(screen.getByRole('option', { name: 'Thinking Putty' })).toBeTruthy();
    // Typed after Escape, on the closed list, then Tab away: downshift reports no blur; still the name.
    await user.keyboard('{Escape}');
    await user.type(input, 'q');
    await user.keyboard('{Escape}');
    await user.type(input, 'x');
    await user.tab();
    expect(screen.getByTestId('value').textContent).toBe('slime');
    expect(input.value).toBe('Slime Charmers');
  });

  it('selectedText: the closed box shows the shorter text, described by the full name; the list and search keep the names', async () => {
    const user = userEvent.setup();
    const CODES: Option[] = [
      { name: '+1 United States', value: 'US:1' },
      { name: '+44 United Kingdom', value: 'GB:44' },
    ];
    function Codes() {
      const [value, setValue] = useState<string | undefined>('US:1');
      return (
        <>
          <Select
            texts={TEXTS}
            id="code"
            label="Code"
            options={CODES}
            value={value}
            onChange={setValue}
            selectedText={(option) => option.name.split(' ')[0]!}
          />
          <button type="button">next</button>
        </>
      );
    }
    render(<Codes />);
    const input = screen.getByRole('combobox', { name: 'Code' }) as HTMLInputElement;
    const description = () => document.getElementById(input.getAttribute('aria-describedby')!)?.textContent;
    expect(input.value).toBe('+1');
    expect(description()).toBe('+1 United States');
    await user.click(input);
    // Showing the pick is not a search: every option is listed, by its full name.
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['+1 United States', '+44 United Kingdom']);
    await user.clear(input);
    await user.type(input, 'king');
    await user.click(screen.getByRole('option', { name: '+44 United Kingdom' }));
    expect(input.value).toBe('+44');
    expect(description()).toBe('+44 United Kingdom');
    // A stale search gives way to the short text on Escape and on leaving.
    await user.clear(input);
    await user.type(input, 'sta');
    await user.keyboard('{Escape}');
    expect(input.value).toBe('+44');
    await user.type(input, 'zzz');
    await user.tab();
    expect(input.value).toBe('+44');
  });

  it('multi: a search left behind goes when the list closes, by Escape or by leaving (outside review)', async () => {
    const user = userEvent.setup();
    render(
      <>
        <Multi />
        <button type="button">next</button>
      </>,
    );
    const input = screen.getByRole('combobox', { name: 'Products' }) as HTMLInputElement;
    await user.click(input);
    await user.type(input, 'zz');
    await user.keyboard('{Escape}');
    expect(input.value).toBe('');
    await user.type(input, 'q');
    await user.keyboard('{Escape}');
    await user.type(input, 'x');
    await user.tab();
    expect(input.value).toBe('');
  });

  it('multi: a pick clears the search at once, the list stays open, and no keystroke after it is lost (outside review)', async () => {
    const user = userEvent.setup();
    render(<Multi />);
    const input = screen.getByRole('combobox', { name: 'Products' }) as HTMLInputElement;
    // By the keyboard: "land", Enter (the first match is highlighted as one types).
    await user.click(input);
    await user.type(input, 'land');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('value').textContent).toBe('dough');
    expect(input.value).toBe('');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    // Every option is listed again, and the one just picked stays highlighted.
    expect(screen.getAllByRole('option')).toHaveLength(PRODUCTS.length);
    expect(document.getElementById(input.getAttribute('aria-activedescendant')!)?.textContent).toBe('Land of Dough');
    await user.keyboard('t');
    expect(input.value).toBe('t');
    await user.keyboard('hi');
    expect(input.value).toBe('thi');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Thinking Putty']);
    // By the mouse: the search clears, and the next letter is kept.
    await user.click(screen.getByRole('option', { name: 'Thinking Putty' }));
    expect(screen.getByTestId('value').textContent).toBe('dough,putty');
    expect(input.value).toBe('');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('x');
    expect(input.value).toBe('x');
    await user.keyboard('{Backspace}s');
    expect(input.value).toBe('s');
    expect(screen.getByTestId('value').textContent).toBe('dough,putty');
  });

  it('multi: stays open, toggles picks and marks them selected', async () => {
    const user = userEvent.setup();
    render(<Multi />);
    await user.click(screen.getByRole('combobox', { name: 'Products' }));
    await user.click(screen.getByRole('option', { name: 'Thinking Putty' }));
    await user.click(screen.getByRole('option', { name: 'Land of Dough' }));
    expect(screen.getByTestId('value').textContent).toBe('putty,dough');
    expect(screen.getByRole('option', { name: 'Land of Dough' }).getAttribute('aria-selected')).toBe('true');
    await user.click(screen.getByRole('option', { name: 'Thinking Putty' }));
    expect(screen.getByTestId('value').textContent).toBe('dough');
  });

  it('multi with a maximum: further picks are ignored, deselect still works', async () => {
    const user = userEvent.setup();
    render(<Multi maxLength={2} />);
    await user.click(screen.getByRole('combobox', { name: 'Products' }));
    await user.click(screen.getByRole('option', { name: 'Thinking Putty' }));
    // A polite status, in the page from the start (so that its change is announced), empty until the maximum.
    const status = screen.getAllByRole('status').find((element) => element.classList.contains('select-limit'))!;
    expect(status.textContent).toBe('');
    await user.click(screen.getByRole('option', { name: 'Slime Charmers' }));
    expect(status.textContent).toBe('You have chosen 2, the most this question takes. Remove one to choose another.');
    // The options not picked say they cannot be picked now (outside review).
    expect(screen.getByRole('option', { name: 'Land of Dough' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('option', { name: 'Slime Charmers' }).getAttribute('aria-disabled')).not.toBe('true');
    await user.click(screen.getByRole('option', { name: 'Land of Dough' }));
    expect(screen.getByTestId('value').textContent).toBe('putty,slime');
    await user.click(screen.getByRole('option', { name: 'Slime Charmers' }));
    expect(screen.getByTestId('value').textContent).toBe('putty');
    expect(status.textContent).toBe('');
    await user.click(screen.getByRole('option', { name: 'Land of Dough' }));
    expect(screen.getByTestId('value').textContent).toBe('putty,dough');
  });

  it('multi: a chip removes its pick', async () => {
    const user = userEvent.setup();
    render(<Multi initial={['putty', 'slime']} />);
    await user.click(screen.getByRole('button', { name: 'Remove Thinking Putty' }));
    expect(screen.getByTestId('value').textContent).toBe('slime');
  });

  it('multi: Backspace in the empty box removes the last pick and says so politely; removing by a chip says so too (outside review)', async () => {
    const user = userEvent.setup();
    render(<Multi maxLength={2} initial={['putty', 'dough']} />);
    const input = screen.getByRole('combobox', { name: 'Products' });
    // The maximum's region, in the page from the start: the removal is said there.
    const status = screen.getAllByRole('status').find((element) => element.classList.contains('select-limit'))!;
    expect(status.textContent).toBe('You have chosen 2, the most this question takes. Remove one to choose another.');
    await user.click(input);
    await user.keyboard('{Backspace}');
    expect(screen.getByTestId('value').textContent).toBe('putty');
    expect(status.textContent).toBe('You removed Land of Dough.');
    // A new pick is not a removal: the message goes.
    await user.click(screen.getByRole('option', { name: 'Slime Charmers' }));
    expect(screen.getByTestId('value').textContent).toBe('putty,slime');
    expect(status.textContent).toBe('You have chosen 2, the most this question takes. Remove one to choose another.');
    await user.click(screen.getByRole('button', { name: 'Remove Thinking Putty' }));
    expect(screen.getByTestId('value').textContent).toBe('slime');
    expect(status.textContent).toBe('You removed Thinking Putty.');
    // Backspace in a box with text deletes text, never a pick.
    await user.click(input);
    await user.keyboard('x{Backspace}');
    expect(screen.getByTestId('value').textContent).toBe('slime');
  });

  it('links its error with aria-describedby', () => {
    render(<Select texts={TEXTS} id="x" label="X" options={PRODUCTS} value={undefined} onChange={() => undefined} error="This field is required" />);
    const input = screen.getByRole('combobox', { name: 'X' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe('This field is required');
  });

  it('marks its frame invalid with a class while it shows an error; the stylesheet has no :has() rule', () => {
    const { rerender } = render(
      <Select texts={TEXTS} id="x" label="X" options={PRODUCTS} value={undefined} onChange={() => undefined} error="This field is required" />,
    );
    const frame = () => document.querySelector('.select-control')!;
    expect(frame().classList.contains('select-control-invalid')).toBe(true);
    rerender(<Select texts={TEXTS} id="x" label="X" options={PRODUCTS} value={undefined} onChange={() => undefined} />);
    expect(frame().classList.contains('select-control-invalid')).toBe(false);
    // Node's URL: under happy-dom the global URL is happy-dom's, which node:fs does not take.
    const css = readFileSync(new NodeURL('../styles.css', import.meta.url), 'utf8');
    expect(css).toMatch(/\.select-control-invalid\b[^{]*\{[^}]*border-color/);
    // A :has() rule is checked again whenever a step's elements appear (style recalc of Welcome → step 1).
    expect(css.replace(/\/\*[\s\S]*?\*\//g, '')).not.toContain(':has(');
  });
});

describe('Select with a long list (windowed)', () => {
  const COUNTRIES: Option[] = getCountries('en').map((country) => ({ name: country.name, value: country.isoAlpha2 }));
  const last = COUNTRIES.at(-1)!;

  beforeEach(layOutListboxes);
  afterEach(() => vi.restoreAllMocks());

  function Countries({ initial }: { initial?: string }) {
    const [value, setValue] = useState<string | undefined>(initial);
    return (
      <>
        <Select texts={TEXTS} id="country" label="Country" options={COUNTRIES} value={value} onChange={setValue} />
        <output data-testid="value">{value}</output>
      </>
    );
  }

  /** The option `aria-activedescendant` names: it must be in the DOM. */
  const active = (input: HTMLElement) => {
    const id = input.getAttribute('aria-activedescendant');
    const option = id ? document.getElementById(id) : null;
    if (!option) throw new Error(`aria-activedescendant "${id}" names no rendered element`);
    return option;
  };

  it('renders the options in view and a few more, not all of them, each with its position in the list', async () => {
    expect(COUNTRIES.length).toBeGreaterThan(WINDOWED_ABOVE);
    const user = userEvent.setup();
    render(<Countries />);
    await user.click(screen.getByRole('combobox', { name: 'Country' }));
    const options = screen.getAllByRole('option');
    expect(options.length).toBeGreaterThanOrEqual(Math.floor(MENU_MAX_HEIGHT_PX / 44));
    expect(options.length).toBeLessThan(30);
    expect(options[0]!.textContent).toBe('United States');
    options.forEach((option, index) => {
      expect(option.getAttribute('aria-setsize')).toBe(String(COUNTRIES.length));
      expect(option.getAttribute('aria-posinset')).toBe(String(index + 1));
    });
  });

  it('End reaches the last option, which is rendered and named by aria-activedescendant; Enter picks it', async () => {
    const user = userEvent.setup();
    render(<Countries />);
    const input = screen.getByRole('combobox', { name: 'Country' });
    await user.click(input);
    await user.keyboard('{End}');
    const option = active(input);
    expect(option.textContent).toBe(last.name);
    expect(option.getAttribute('aria-posinset')).toBe(String(COUNTRIES.length));
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('value').textContent).toBe(last.value);
  });

  it('PageDown moves ten options, PageUp and Home back; the active option is always rendered', async () => {
    const user = userEvent.setup();
    render(<Countries />);
    const input = screen.getByRole('combobox', { name: 'Country' });
    await user.click(input);
    await user.keyboard('{ArrowDown}');
    expect(active(input).textContent).toBe(COUNTRIES[0]!.name);
    for (let page = 1; page <= 5; page++) {
      await user.keyboard('{PageDown}');
      expect(active(input).textContent).toBe(COUNTRIES[page * 10]!.name);
    }
    await user.keyboard('{PageUp}');
    expect(active(input).textContent).toBe(COUNTRIES[40]!.name);
    await user.keyboard('{End}{Home}');
    expect(active(input).textContent).toBe(COUNTRIES[0]!.name);
    await user.keyboard('{ArrowUp}');
    expect(active(input).textContent).toBe(last.name);
  });

  it('opens on the picked option, rendered, highlighted and marked selected', async () => {
    const user = userEvent.setup();
    render(<Countries initial={last.value} />);
    const input = screen.getByRole('combobox', { name: 'Country' });
    await user.click(screen.getByRole('button', { name: 'Show options' }));
    const option = active(input);
    expect(option.textContent).toBe(last.name);
    expect(option.getAttribute('aria-selected')).toBe('true');
  });

  it('opening and typing read no option layout: options are sized by ResizeObserver after the browser lays them out', async () => {
    const read = vi.mocked(Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!.get!);
    const rect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect');
    const optionReads = () =>
      read.mock.contexts.filter((element) => (element as HTMLElement).getAttribute('role') === 'option').length +
      rect.mock.contexts.filter((element) => (element as HTMLElement).getAttribute('role') === 'option').length;
    const user = userEvent.setup();
    render(<Countries />);
    const input = screen.getByRole('combobox', { name: 'Country' });
    await user.click(input);
    await user.type(input, 'united');
    expect(screen.getAllByRole('option').length).toBeGreaterThan(1);
    // (Moving with the keys reads the highlighted option's position: downshift scrolls it into view.)
    expect(optionReads()).toBe(0);
  });

  it('typing filters the long list, and a pick from the filtered list works', async () => {
    const user = userEvent.setup();
    render(<Countries />);
    const input = screen.getByRole('combobox', { name: 'Country' });
    await user.type(input, 'united');
    const names = screen.getAllByRole('option').map((option) => option.textContent);
    expect(names).toEqual(COUNTRIES.filter((country) => country.name.toLowerCase().includes('united')).map((country) => country.name));
    await user.click(screen.getByRole('option', { name: 'United Kingdom' }));
    expect(screen.getByTestId('value').textContent).toBe('GB');
    expect((input as HTMLInputElement).value).toBe('United Kingdom');
  });
});

describe('a single select that shows its choice', () => {
  it('selects the choice on a click in the box, focused already: what is typed replaces it', async () => {
    const user = userEvent.setup();
    render(<Single />);
    const box = screen.getByRole('combobox', { name: 'How often' }) as HTMLInputElement;
    await user.type(box, 'slime{Enter}');
    expect(screen.getByTestId('value').textContent).toBe('slime');
    expect(box.value).toBe('Slime Charmers');
    expect(document.activeElement).toBe(box);
    // A click in the box, which has focus: the caret would sit in the choice, and typing append to it.
    await user.click(box);
    await user.keyboard('Land{Enter}');
    expect(screen.getByTestId('value').textContent).toBe('dough');
  });
});

describe('a multiple select', () => {
  it("gives focus to the next chip's remove button when one takes its chip away, the one before for the last, the box when none is left", async () => {
    const user = userEvent.setup();
    render(<Multi initial={['putty', 'slime', 'dough']} />);
    const remove = (name: RegExp) => screen.getByRole('button', { name });
    await user.click(remove(/Thinking Putty/));
    expect(screen.getByTestId('value').textContent).toBe('slime,dough');
    await waitFor(() => expect(document.activeElement).toBe(remove(/Slime Charmers/)));
    await user.click(remove(/Land of Dough/));
    await waitFor(() => expect(document.activeElement).toBe(remove(/Slime Charmers/)));
    await user.click(remove(/Slime Charmers/));
    expect(screen.getByTestId('value').textContent).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Products' })));
  });
});
