import { useCallback, useEffect, useRef, useState } from 'react';
import type { Problem } from './fields';
import { errorsOf, failureText, isTransient } from '../api';
import { saveDraft, saveDraftOnLeaving, staleOf, type StaleProblem } from '../features/pages/api';

/** How long after the last change the draft is saved: typing goes on without a request per key. */
export const AUTOSAVE_DELAY_MS = 800;
/** The longest wait between two tries of a save that failed on the network or the server. */
const MAX_RETRY_MS = 30_000;

/** Where the draft's saving stands. */
export type SaveState =
  | { kind: 'saved'; at: string }
  /** Changed since the last save: saved once typing pauses. */
  | { kind: 'pending' }
  | { kind: 'saving' }
  /** Not saved: `retryIn` ms until the next try (a network or server failure), or none (refused: the next change tries again). */
  | { kind: 'failed'; reason: string; retryIn?: number }
  /** Someone else saved the page since it was opened: nothing more is saved until their version is loaded. */
  | { kind: 'conflict'; stale: StaleProblem };

/**
 * Saves the draft as the team types: `PUT /pages/{id}/draft` with the revision it was
 * edited from, {@link AUTOSAVE_DELAY_MS} after the last change, one request at a time (a change
 * made while one is on its way is saved after it), and as the page is left (a `keepalive`
 * request; closing or reloading the tab with changes not saved yet asks first, `beforeunload`). A stale revision (409) stops saving and tells who changed the page and when: never a
 * silent overwrite. A network or server failure keeps the draft and tries again, waiting longer
 * each time (2 s, 4 s, … 30 s); a refusal (400, 413) shows its field errors and waits for the next change.
 * @returns the state, the field errors of a refusal, the current revision, and `flush`: saves now
 * and resolves true once the server holds the draft as it is (what publishing needs first).
 */
export function useAutosave({
  id,
  draft,
  revision,
  updatedAt,
  enabled,
}: {
  id: string;
  draft: unknown;
  revision: number;
  updatedAt: string;
  enabled: boolean;
}) {
  const [state, setState] = useState<SaveState>({ kind: 'saved', at: updatedAt });
  const [refused, setRefused] = useState<Problem[]>([]);
  const current = useRef({ revision, saved: draft, latest: draft, rejected: undefined as unknown, stopped: false, attempts: 0 });
  const inFlight = useRef<Promise<boolean> | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = useCallback(async (): Promise<boolean> => {
    clearTimeout(timer.current);
    for (;;) {
      if (inFlight.current) {
        await inFlight.current;
        continue;
      }
      const now = current.current;
      if (now.stopped) return false;
      if (now.latest === now.saved) return true;
      if (now.latest === now.rejected) return false;
      const body = now.latest;
      setState({ kind: 'saving' });
      const request = saveDraft(id, body, now.revision).then(
        (answer) => {
          now.revision = answer.revision;
          now.saved = body;
          now.attempts = 0;
          setRefused((before) => (before.length === 0 ? before : []));
          if (now.latest === body) setState({ kind: 'saved', at: answer.updatedAt });
          return true;
        },
        (error: unknown) => {
          const stale = staleOf(error);
          if (stale) {
            now.stopped = true;
            setState({ kind: 'conflict', stale });
          } else if (isTransient(error)) {
            now.attempts += 1;
            const wait = Math.min(MAX_RETRY_MS, 1000 * 2 ** now.attempts);
            setState({ kind: 'failed', reason: failureText(error), retryIn: wait });
            timer.current = setTimeout(() => void flush(), wait);
          } else {
            now.rejected = body;
            setRefused(errorsOf(error));
            setState({ kind: 'failed', reason: failureText(error) });
          }
          return false;
        },
      );
      inFlight.current = request;
      const done = await request;
      inFlight.current = undefined;
      if (!done) return false;
    }
  }, [id]);

  // Each change: saved once typing pauses.
  useEffect(() => {
    current.current.latest = draft;
    if (!enabled || current.current.stopped || draft === current.current.saved) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS);
  }, [draft, enabled, flush]);

  // Leaving: the page hidden or closed, or the editor left for another view of the inbox.
  useEffect(() => {
    if (!enabled) return;
    const now = current.current;
    const leave = () => {
      if (now.stopped || now.latest === now.saved || now.latest === now.rejected || inFlight.current) return;
      clearTimeout(timer.current);
      saveDraftOnLeaving(id, { config: now.latest, revision: now.revision });
    };
    // Closing or reloading the tab with changes the server does not hold yet: the browser asks first.
    const warn = (event: BeforeUnloadEvent) => {
      if (now.latest !== now.saved) event.preventDefault();
    };
    window.addEventListener('pagehide', leave);
    window.addEventListener('beforeunload', warn);
    return () => {
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('beforeunload', warn);
      // Unmounted (another view of the inbox): saved now, through the ordinary client.
      clearTimeout(timer.current);
      if (!now.stopped && now.latest !== now.saved && now.latest !== now.rejected) void flush();
    };
  }, [enabled, id, flush]);

  /** Called on each change (an event, so the status line says "Saving…" at once). */
  const touch = useCallback(() => setState((before) => (before.kind === 'conflict' || before.kind === 'saving' ? before : { kind: 'pending' })), []);
  /** A 409 met elsewhere (publishing a stale revision): saving stops as for the draft's own. */
  const conflict = useCallback((stale: StaleProblem) => {
    current.current.stopped = true;
    clearTimeout(timer.current);
    setState({ kind: 'conflict', stale });
  }, []);

  /**
   * After a 409, the team's explicit choice to keep its own draft: saved over the other version
   * (from its revision, which the 409 named), never without being asked.
   */
  const overwrite = useCallback(
    (revision: number) => {
      current.current.revision = revision;
      current.current.stopped = false;
      current.current.rejected = undefined;
      void flush();
    },
    [flush],
  );

  return { state, refused, flush, touch, conflict, overwrite, revision: () => current.current.revision };
}

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** The save state as the status line says it: "Saving…", "Saved at 14:02", "Not saved: … Trying again in 4 s." */
export function saveText(state: SaveState): string {
  if (state.kind === 'conflict') return 'Not saved: someone else changed this page.';
  if (state.kind === 'failed')
    return `Not saved: ${state.reason}.${state.retryIn ? ` Trying again in ${Math.round(state.retryIn / 1000)} s; your changes are kept here.` : ''}`;
  if (state.kind === 'saving' || state.kind === 'pending') return 'Saving…';
  return `Saved at ${time.format(new Date(state.at))}`;
}
