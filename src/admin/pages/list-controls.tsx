import { moveItem, type DraftPath } from './draft';
import { useEditor } from './fields';
import { announce } from '../announcer';

/**
 * "Move up", "Move down" and "Remove" for one element of a list of the draft (steps, blocks,
 * options, platforms, covers, links), each named with the element (`Move up: option 2, Red`) so a
 * screen reader's list of buttons tells them apart; absent for a viewer. Focus stays with the
 * moved element's button (or goes to the list's heading when it is removed), and the change is said.
 * @param onMove - also told of a move (the sortable lists keep their items' keys in step).
 */
export function ListControls({ path, index, count, name, onMove, onRemove }: { path: DraftPath; index: number; count: number; name: string; onMove?: (from: number, to: number) => void; onRemove?: (index: number) => void }) {
  const editor = useEditor();
  if (editor.readOnly) return null;
  const list = (): unknown[] => {
    let value: unknown = editor.draft;
    for (const key of path) value = (value as Record<string | number, unknown> | undefined)?.[key];
    return Array.isArray(value) ? value : [];
  };
  const move = (to: number, button: HTMLButtonElement) => {
    onMove?.(index, to);
    editor.change(path, moveItem(list(), index, to));
    announce(`${name} moved to position ${to + 1} of ${count}.`);
    // The same button of the moved element, where it went (it re-renders under a new position).
    const group = button.closest('[data-list-item]')?.parentElement;
    const label = button.dataset.action;
    requestAnimationFrame(() => {
      const target = group?.children[to]?.querySelector<HTMLButtonElement>(`button[data-action="${label}"]:not(:disabled)`) ?? group?.children[to]?.querySelector<HTMLButtonElement>('button[data-action]:not(:disabled)');
      target?.focus();
    });
  };
  return (
    <span className="list-controls">
      <button type="button" className="secondary small" data-action="up" disabled={index === 0} aria-label={`Move up: ${name}`} onClick={(event) => move(index - 1, event.currentTarget)}>
        Up
      </button>
      <button type="button" className="secondary small" data-action="down" disabled={index === count - 1} aria-label={`Move down: ${name}`} onClick={(event) => move(index + 1, event.currentTarget)}>
        Down
      </button>
      <button
        type="button"
        className="secondary small danger-text"
        data-action="remove"
        aria-label={`Remove: ${name}`}
        onClick={(event) => {
          // Focus goes to the element that takes its place (its Remove button), else the one before, else the list's group.
          const item = event.currentTarget.closest('[data-list-item]');
          const group = item?.parentElement;
          const landing = item?.closest('fieldset, section');
          onRemove?.(index);
          editor.change(path, list().filter((_, i) => i !== index));
          announce(`${name} removed.`);
          requestAnimationFrame(() => {
            const next = group?.children[Math.min(index, count - 2)];
            const target = next?.querySelector<HTMLElement>('button[data-action="remove"]') ?? (landing instanceof HTMLElement ? landing : undefined);
            if (target && !target.hasAttribute('tabindex') && target.tagName !== 'BUTTON') target.setAttribute('tabindex', '-1');
            target?.focus();
          });
        }}
      >
        Remove
      </button>
    </span>
  );
}
