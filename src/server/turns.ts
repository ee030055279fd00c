/**
 * Turns at work the process hands out one at a time (exports, docs/decisions/014;
 * uploads, docs/decisions/021): at most `running` held at once; up to `waiting` more
 * wait for one, first come first served, each at most `waitMs`; beyond that, or past that time,
 * the caller is told `'busy'` (the routes answer 503 with Retry-After) rather than left waiting
 * without an answer. A waiter whose client goes away leaves the queue at once.
 */

/** How many turns are held at once, and how many may wait and for how long. */
export interface TurnLimits {
  /** Turns held at a time. */
  running: number;
  /** Callers waiting for a turn; one more is told `'busy'` at once. */
  waiting: number;
  /** The longest wait for a turn, in ms; past it, `'busy'`. */
  waitMs: number;
}

/** A turn held: `release` gives it back (once; later calls do nothing), to the next waiter if any. */
export interface Turn {
  release(): void;
}

/** What tells that a waiter's client went away: a response (`http.ServerResponse`), which emits `close`. */
export interface Departure {
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/** A counting semaphore with a bounded, timed queue: see the module's comment. */
export class Turns {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  /** @param limits - read on every call: a caller may change them (tests do). */
  constructor(readonly limits: TurnLimits) {}

  /** Turns held now and callers waiting. */
  get counts(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.queue.length };
  }

  /**
   * Takes a turn: at once when fewer than `limits.running` are held, else when one is given back.
   * @param gone - when given, its `close` takes a waiting caller out of the queue.
   * @returns the turn; `'busy'` at once when `limits.waiting` wait already, or after
   *   `limits.waitMs` of waiting; `'gone'` when `gone` closed while the caller waited.
   */
  async take(gone?: Departure): Promise<Turn | 'busy' | 'gone'> {
    if (this.active < this.limits.running) {
      this.active += 1;
      return this.turn();
    }
    if (this.queue.length >= this.limits.waiting) return 'busy';
    return new Promise((resolve) => {
      const settle = (result: Turn | 'busy' | 'gone') => {
        clearTimeout(timer);
        gone?.off('close', onGone);
        resolve(result);
      };
      // A turn given back is handed over as it is: `active` stays as it was.
      const wake = () => settle(this.turn());
      const leave = (why: 'busy' | 'gone') => {
        const at = this.queue.indexOf(wake);
        if (at !== -1) this.queue.splice(at, 1);
        settle(why);
      };
      const onGone = () => leave('gone');
      const timer = setTimeout(() => leave('busy'), this.limits.waitMs);
      this.queue.push(wake);
      gone?.once('close', onGone);
    });
  }

  private turn(): Turn {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const next = this.queue.shift();
        if (next) next();
        else this.active -= 1;
      },
    };
  }
}
