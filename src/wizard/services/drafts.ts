/**
 * Drafts ("nothing typed is lost"): the answers and the current step
 * are saved while the applicant types and restored after a reload or a tab
 * crash; cleared after a successful submit. Kept in sessionStorage by default
 * (`drafts: "session"`), localStorage with `"local"`, nowhere with `"off"`;
 * scoped by pageId.
 */

import type { AgeScreenAnswers } from '../../shared/build-payload';

/** Where drafts are kept (configuration `drafts`). */
export type DraftMode = 'local' | 'session' | 'off';

/** A saved draft. */
export interface Draft {
  /** The step index to return to. */
  step: number;
  /** The form values, as the form keeps them. */
  values: Record<string, unknown>;
  /** The age screen's answers once they took (requirements §20), kept beside the form's values. */
  screen?: AgeScreenAnswers | undefined;
}

/** Storage format version: a draft of another version is ignored. */
const VERSION = 1;

/** What the wizard needs of draft storage. */
export interface DraftStore {
  load(): Draft | undefined;
  save(draft: Draft): void;
  clear(): void;
}

function pickStorage(mode: DraftMode): Storage | undefined {
  // Server rendering has no storage: the page it renders is the one without a draft.
  if (mode === 'off' || typeof window === 'undefined') return undefined;
  try {
    return mode === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * Creates the draft store of a page.
 * @param mode - `local`, `session` or `off`.
 * @param pageId - the page the draft belongs to.
 */
export function createDraftStore(mode: DraftMode, pageId: string): DraftStore {
  const storage = pickStorage(mode);
  const key = `wizard:${pageId}:draft`;
  return {
    load() {
      try {
        const text = storage?.getItem(key);
        if (!text) return undefined;
        const parsed = JSON.parse(text) as { version?: number; step?: unknown; values?: unknown; screen?: unknown };
        if (parsed.version !== VERSION || typeof parsed.step !== 'number' || typeof parsed.values !== 'object' || parsed.values === null) {
          return undefined;
        }
        return { step: parsed.step, values: parsed.values as Record<string, unknown>, screen: parsed.screen as AgeScreenAnswers | undefined };
      } catch {
        return undefined;
      }
    },
    save(draft) {
      try {
        storage?.setItem(key, JSON.stringify({ version: VERSION, ...draft }));
      } catch {
        // full or disabled storage: the answers stay in the page
      }
    },
    clear() {
      try {
        storage?.removeItem(key);
      } catch {
        // nothing saved
      }
    },
  };
}
