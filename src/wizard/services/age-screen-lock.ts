import type { AgeAnswer, AgeVerdict } from '../../shared/age';
import { AGE_SCREEN_LOCK_MS } from '../../shared/age-limits';

/**
 * Where a browser keeps that the age screen ended the wizard (requirements §20): the verdict and
 * when, never the answer; and a minor's answer on a page that asks their guardian (sent anyway). While it holds ({@link AGE_SCREEN_LOCK_MS}: 24 hours), the screen ends
 * again whatever is typed: no going back to change the answer (the FTC's COPPA FAQ, section G).
 */
export interface AgeScreenLock {
  /** The verdict that ended the screen within the last 24 hours, if any. */
  ended(): AgeVerdict | undefined;
  /** Keeps that `verdict` ended the screen now. */
  end(verdict: AgeVerdict): void;
  /**
   * A minor's answer on a page that asks their parent or guardian, kept within the last 24 hours:
   * the screen then goes straight to the guardian's details with it (no answering again as an adult).
   */
  minorAnswer(): AgeAnswer | undefined;
  /** Keeps a minor's answer now (it is sent with the application anyway). */
  keepMinorAnswer(age: AgeAnswer): void;
}

const VERDICTS: readonly string[] = ['under', 'minor'];

/**
 * The public page's lock: localStorage under `wizard:{pageId}:ageScreen`, whatever the page's
 * `drafts` say (it holds no answer: a verdict and a time), so a new tab or a reload ends the same
 * way. A browser that keeps nothing (storage off or full) keeps no lock: the screen asks again.
 * @param now - the clock (ms since the epoch).
 */
export function createAgeScreenLock(pageId: string, now: () => number = Date.now): AgeScreenLock {
  const key = `wizard:${pageId}:ageScreen`;
  const minorKey = `wizard:${pageId}:ageScreenMinor`;
  const storage = (): Storage | undefined => {
    try {
      return window.localStorage;
    } catch {
      return undefined;
    }
  };
  /** What `name` holds, when it was kept within the last 24 hours. */
  const recent = <T>(name: string): (T & { at: number }) | undefined => {
    try {
      const kept = JSON.parse(storage()?.getItem(name) ?? 'null') as (T & { at?: unknown }) | null;
      if (!kept || typeof kept.at !== 'number') return undefined;
      const age = now() - kept.at;
      return age >= 0 && age < AGE_SCREEN_LOCK_MS ? (kept as T & { at: number }) : undefined;
    } catch {
      return undefined;
    }
  };
  const keep = (name: string, value: object) => {
    try {
      storage()?.setItem(name, JSON.stringify({ ...value, at: now() }));
    } catch {
      // A browser that keeps nothing keeps no lock.
    }
  };
  return {
    ended() {
      const verdict = recent<{ verdict?: unknown }>(key)?.verdict;
      return typeof verdict === 'string' && VERDICTS.includes(verdict) ? (verdict as AgeVerdict) : undefined;
    },
    end(verdict) {
      keep(key, { verdict });
    },
    minorAnswer() {
      const age = recent<{ age?: unknown }>(minorKey)?.age as AgeAnswer | undefined;
      return age && typeof age.birthMonth === 'string'
        ? { birthMonth: age.birthMonth, ...(typeof age.countryCode === 'string' ? { countryCode: age.countryCode } : {}) }
        : undefined;
    },
    keepMinorAnswer(age) {
      keep(minorKey, { age });
    },
  };
}
