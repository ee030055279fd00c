import { useEffect, useEffectEvent } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Link, useSearch } from 'wouter';
import type { ApplicationStatus, Neighbours } from '../shared/admin';

/**
 * Triage without round trips: an application's page knows the list view it was opened
 * from (its filters and sort, carried in its own address), the previous and next application of
 * that view, and the keyboard shortcuts that move through it and decide.
 */

/** The keyboard shortcuts, as the help dialog lists them and `aria-keyshortcuts` names them. */
export const SHORTCUTS = {
  next: 'j',
  previous: 'k',
  shortlisted: 's',
  accepted: 'a',
  declined: 'd',
  undo: 'z',
  search: '/',
  help: '?',
} as const;
/** One shortcut key. */
export type Shortcut = (typeof SHORTCUTS)[keyof typeof SHORTCUTS];

const SHORTCUT_HELP: [Shortcut, string][] = [
  [SHORTCUTS.next, 'Next application in the view'],
  [SHORTCUTS.previous, 'Previous application in the view'],
  [SHORTCUTS.shortlisted, 'Shortlist, then show the next'],
  [SHORTCUTS.accepted, 'Accept, then show the next'],
  [SHORTCUTS.declined, 'Decline, then show the next'],
  [SHORTCUTS.undo, 'Undo the last decision'],
  [SHORTCUTS.search, 'Search the applications'],
  [SHORTCUTS.help, 'Show these shortcuts'],
];

/** A decision that can be undone: the application, its applicant's name and the status it had before. */
export interface UndoableDecision {
  id: string;
  name: string;
  previous: ApplicationStatus;
}

let carried: { message: string; undo?: UndoableDecision } | undefined;
/** Keeps a message for the next application's page to show (a decision's outcome, as triage moves on), and the decision's undo. */
export function carryMessage(message: string, undo?: UndoableDecision) {
  carried = { message, undo };
}
/** The message (and undo) carried to this page, once: undefined when there is none. */
export function takeCarriedMessage(): { message: string; undo?: UndoableDecision } | undefined {
  const taken = carried;
  carried = undefined;
  return taken;
}

/** The list view an application's page was opened from: its address's query string, without `?` ('' for all, newest first). */
export function useView(): string {
  return useSearch();
}

/** The address of an application's page within a view. */
export function applicationHref(id: string, view: string): string {
  return `/applications/${encodeURIComponent(id)}${view ? `?${view}` : ''}`;
}

/** True for a key press the page should leave alone: typing in a field, or with a modifier. */
function isTyping(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * Calls `handlers[key]` for a shortcut pressed anywhere on the page but in a field (the latest
 * handlers: they may change every render).
 */
export function useShortcuts(handlers: Partial<Record<string, () => void>>) {
  const onShortcut = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || isTyping(event)) return;
    const handler = handlers[event.key];
    if (!handler) return;
    event.preventDefault();
    handler();
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => onShortcut(event);
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

/** Previous and next links of a view, each naming its shortcut (`aria-keyshortcuts`). */
export function TriageNav({ neighbours, view }: { neighbours: Neighbours | undefined; view: string }) {
  return (
    <nav className="triage-nav" aria-label="Applications in this view">
      {neighbours?.previous ? (
        <Link href={applicationHref(neighbours.previous, view)} aria-keyshortcuts={SHORTCUTS.previous}>
          ← Previous
        </Link>
      ) : (
        <span className="disabled">← Previous</span>
      )}
      {neighbours?.next ? (
        <Link href={applicationHref(neighbours.next, view)} aria-keyshortcuts={SHORTCUTS.next}>
          Next →
        </Link>
      ) : (
        <span className="disabled">Next →</span>
      )}
      <span className="hint">
        Press <kbd>?</kbd> for shortcuts
      </span>
    </nav>
  );
}

/**
 * The shortcuts' help: a modal dialog (React Aria: focus held inside, Escape or a press outside closes it).
 * @param keys - the shortcuts that work in the current view and role, the only ones listed.
 */
export function ShortcutsHelp({ open, onOpenChange, keys }: { open: boolean; onOpenChange: (open: boolean) => void; keys: readonly Shortcut[] }) {
  return (
    <ModalOverlay className="modal-overlay" isOpen={open} onOpenChange={onOpenChange} isDismissable>
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title">Keyboard shortcuts</Heading>
          <dl className="shortcuts">
            {SHORTCUT_HELP.filter(([key]) => keys.includes(key)).map(([key, what]) => (
              <div key={key}>
                <dt>
                  <kbd>{key}</kbd>
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
          <button type="button" onClick={() => onOpenChange(false)}>
            Close
          </button>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
