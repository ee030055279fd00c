import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Turns, type Turn } from './turns';

describe('turns (exports, uploads)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('holds at most `running` at once, hands a turn given back to the first waiter, and a second release gives nothing', async () => {
    const turns = new Turns({ running: 1, waiting: 2, waitMs: 1000 });
    const first = (await turns.take()) as Turn;
    const order: string[] = [];
    const second = turns.take().then((turn) => (order.push('second'), turn as Turn));
    const third = turns.take().then((turn) => (order.push('third'), turn as Turn));
    expect(turns.counts).toEqual({ running: 1, waiting: 2 });
    first.release();
    first.release();
    (await second).release();
    (await third).release();
    expect(order).toEqual(['second', 'third']);
    expect(turns.counts).toEqual({ running: 0, waiting: 0 });
  });

  it('is busy at once when `waiting` wait already, and after `waitMs` of waiting', async () => {
    const turns = new Turns({ running: 1, waiting: 1, waitMs: 1000 });
    const held = (await turns.take()) as Turn;
    const waiting = turns.take();
    expect(await turns.take()).toBe('busy');
    await vi.advanceTimersByTimeAsync(999);
    expect(turns.counts.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await waiting).toBe('busy');
    expect(turns.counts).toEqual({ running: 1, waiting: 0 });
    held.release();
    expect(turns.counts).toEqual({ running: 0, waiting: 0 });
  });

  it('takes a waiter whose client went away out of the queue', async () => {
    const turns = new Turns({ running: 1, waiting: 1, waitMs: 1000 });
    const held = (await turns.take()) as Turn;
    const response = new EventEmitter();
    const waiting = turns.take(response);
    response.emit('close');
    expect(await waiting).toBe('gone');
    expect(turns.counts).toEqual({ running: 1, waiting: 0 });
    expect(response.listenerCount('close')).toBe(0);
    held.release();
    expect(turns.counts).toEqual({ running: 0, waiting: 0 });
  });
});
