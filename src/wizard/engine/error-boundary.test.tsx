import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary';

afterEach(cleanup);

function Broken(): never {
  throw new Error('render failed');
}

it('an uncaught render error shows the friendly fallback instead of a blank page, and is reported', () => {
  // React reports the caught error on the console; that is expected here.
  const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const reported: unknown[] = [];
  render(
    <ErrorBoundary fallback="Sorry, something went wrong." reloadText="Reload" onError={(error, stack) => void reported.push(error, typeof stack)}>
      <Broken />
    </ErrorBoundary>,
  );
  expect(screen.getByRole('alert').textContent).toContain('Sorry, something went wrong.');
  expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  expect(reported).toEqual([new Error('render failed'), 'string']);
  spy.mockRestore();
});
