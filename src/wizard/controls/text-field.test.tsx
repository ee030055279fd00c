import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTLE_DELAY_MS, TextField } from './text-field';

afterEach(cleanup);

function Harness({ onSettle, error }: { onSettle: (value: string) => void; error?: string }) {
  const [value, setValue] = useState('');
  return (
    <TextField
      id="t"
      name="t"
      label="Dream campaign"
      footer="A few lines"
      placeholder="Tell us"
      value={value}
      onChange={setValue}
      onSettle={onSettle}
      error={error}
    />
  );
}

describe('TextField', () => {
  it('labels the input, shows placeholder and footer', () => {
    render(<Harness onSettle={() => undefined} />);
    const input = screen.getByLabelText('Dream campaign');
    expect(input.getAttribute('placeholder')).toBe('Tell us');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe('A few lines');
  });

  it('settles 500 ms after typing stops, once per distinct value (requirements §5)', () => {
    vi.useFakeTimers();
    const onSettle = vi.fn();
    render(<Harness onSettle={onSettle} />);
    const input = screen.getByLabelText('Dream campaign');
    fireEvent.change(input, { target: { value: 'a' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(input, { target: { value: 'ab' } });
    act(() => vi.advanceTimersByTime(SETTLE_DELAY_MS - 1));
    expect(onSettle).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSettle).toHaveBeenCalledTimes(1);
    expect(onSettle).toHaveBeenLastCalledWith('ab');
    // Typing and restoring the same text is not a new value.
    fireEvent.change(input, { target: { value: 'abc' } });
    fireEvent.change(input, { target: { value: 'ab' } });
    act(() => vi.advanceTimersByTime(SETTLE_DELAY_MS));
    expect(onSettle).toHaveBeenCalledTimes(1);
    // Nothing typed is held back: the value is there at once.
    expect((input as HTMLInputElement).value).toBe('ab');
  });

  it('while it shows an error, settles after each keystroke: the error leaves as the text gets right, not under the next press', () => {
    vi.useFakeTimers();
    const onSettle = vi.fn();
    render(<Harness onSettle={onSettle} error="This field is required" />);
    fireEvent.change(screen.getByLabelText('Dream campaign'), { target: { value: 'a' } });
    act(() => vi.advanceTimersByTime(0));
    expect(onSettle).toHaveBeenLastCalledWith('a');
    vi.useRealTimers();
  });

  it('settleAtOnce (an error of its group shows): settles after each keystroke too', () => {
    vi.useFakeTimers();
    const onSettle = vi.fn();
    function Grouped() {
      const [value, setValue] = useState('');
      return <TextField id="g" name="g" label="Handle" value={value} onChange={setValue} onSettle={onSettle} settleAtOnce />;
    }
    render(<Grouped />);
    fireEvent.change(screen.getByLabelText('Handle'), { target: { value: 'a' } });
    act(() => vi.advanceTimersByTime(0));
    expect(onSettle).toHaveBeenLastCalledWith('a');
    vi.useRealTimers();
  });

  it('renders a textarea when multiline', () => {
    render(<TextField id="m" name="m" label="Long" multiline value="" onChange={() => undefined} />);
    expect(screen.getByLabelText('Long').tagName).toBe('TEXTAREA');
  });
});
