import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Select, filterOptions, type Option } from './select';

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
      <Select id="products" label="Products" options={PRODUCTS} multiple maxLength={maxLength} value={value} onChange={setValue} />
      <output data-testid="value">{value.join(',')}</output>
    </>
  );
}

function Single() {
  const [value, setValue] = useState<string>();
  return (
    <>
      <Select id="often" label="How often" options={PRODUCTS} value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('filterOptions (SPEC §5 search)', () => {
  it('is a case-insensitive substring match on the name', () => {
    expect(filterOptions(PRODUCTS, 'PUTTY').map((o) => o.value)).toEqual(['putty']);
    expect(filterOptions(PRODUCTS, 'ar').map((o) => o.value)).toEqual(['slime']);
    expect(filterOptions(PRODUCTS, 'I').map((o) => o.value)).toEqual(['putty', 'slime']);
    expect(filterOptions(PRODUCTS, '')).toHaveLength(3);
    expect(filterOptions(PRODUCTS, 'zzz')).toEqual([]);
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
    await user.click(screen.getByRole('option', { name: 'Slime Charmers' }));
    await user.click(screen.getByRole('option', { name: 'Land of Dough' }));
    expect(screen.getByTestId('value').textContent).toBe('putty,slime');
    await user.click(screen.getByRole('option', { name: 'Slime Charmers' }));
    expect(screen.getByTestId('value').textContent).toBe('putty');
    await user.click(screen.getByRole('option', { name: 'Land of Dough' }));
    expect(screen.getByTestId('value').textContent).toBe('putty,dough');
  });

  it('multi: a chip removes its pick', async () => {
    const user = userEvent.setup();
    render(<Multi initial={['putty', 'slime']} />);
    await user.click(screen.getByRole('button', { name: 'Remove Thinking Putty' }));
    expect(screen.getByTestId('value').textContent).toBe('slime');
  });

  it('links its error with aria-describedby', () => {
    render(<Select id="x" label="X" options={PRODUCTS} value={undefined} onChange={() => undefined} error="This field is required" />);
    const input = screen.getByRole('combobox', { name: 'X' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe('This field is required');
  });
});
