import type { AgeVerdict } from '../../shared/age';
import { AGE_SCREEN_LOCK_MS } from '../../shared/age-limits';

/**
 * Where a browser keeps that the age screen ended the wizard (requirements §20): the verdict and
 * when, never the answer. While it holds ({@link AGE_SCREEN_LOCK_MS}: 24 hours), the screen ends
 * again whatever is typed: no going back to change the answer (the FTC's COPPA FAQ, section G).
 */
export interface AgeScreenLock {
  /** The verdict that ended the screen within the last 24 hours, if any. */
  ended(): AgeVerdict | undefined;
  /** Keeps that `verdict` ended the screen now. */
  end(verdict: AgeVerdict): void;
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
  const storage = (): Storage | undefined => {
    try {
      return window.localStorage;
    } catch {
      return undefined;
    }
  };
  return {
    ended() {
      try {
        const kept = JSON.parse(storage()?.getItem(key) ?? 'null') as { verdict?: unknown; at?: unknown } | null;
        if (!kept || typeof kept.at !== 'number' || typeof kept.verdict !== 'string' || !VERDICTS.includes(kept.verdict)) return undefined;
        const age = now() - kept.at;
        return age >= 0 && age < AGE_SCREEN_LOCK_MS ? (kept.verdict as AgeVerdict) : undefined;
      } catch {
        return undefined;
      }
    },
    end(verdict) {
      try {
        storage()?.setItem(key, JSON.stringify({ verdict, at: now() }));
      } catch {
        // A browser that keeps nothing keeps no lock.
      }
    },
  };
}
