import { moveItem, type DraftPath } from './draft';
import { useEditor } from './fields';
import { announce } from '../announcer';

/**
 * "Move up", "Move down" and "Remove" for one element of a list of the draft (steps, blocks,
 * options, platforms, covers, links), each named with the element (`Move up: option 2, Red`) so a
 * screen reader's list of buttons tells them apart; absent for a viewer. Focus stays with the
 * moved element's button; a removal is said and offers an Undo, which takes focus (a second Enter
 * undoes rather than removing the next element), and the change is said.
 * @param onMove - also told of a move (the sortable lists keep their items' keys in step).
 * @param onRestore - told when a removal is undone (the element is back at its index).
 */
export function ListControls({
  path,
  index,
  count,
  name,
  onMove,
  onRemove,
  onRestore,
}: {
  path: DraftPath;
  index: number;
  count: number;
  name: string;
  onMove?: (from: number, to: number) => void;
  onRemove?: (index: number) => void;
  onRestore?: (index: number) => void;
}) {
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
      const target =
        group?.children[to]?.querySelector<HTMLButtonElement>(`button[data-action="${label}"]:not(:disabled)`) ??
        group?.children[to]?.querySelector<HTMLButtonElement>('button[data-action]:not(:disabled)');
      target?.focus();
    });
  };
  return (
    <span className="list-controls">
      <button
        type="button"
        className="secondary small"
        data-action="up"
        disabled={index === 0}
        aria-label={`Move up: ${name}`}
        onClick={(event) => move(index - 1, event.currentTarget)}
      >
        Up
      </button>
      <button
        type="button"
        className="secondary small"
        data-action="down"
        disabled={index === count - 1}
        aria-label={`Move down: ${name}`}
        onClick={(event) => move(index + 1, event.currentTarget)}
      >
        Down
      </button>
      <button
        type="button"
        className="secondary small danger-text"
        data-action="remove"
        aria-label={`Remove: ${name}`}
        onClick={(event) => {
          const item = event.currentTarget.closest('[data-list-item]');
          const group = item?.parentElement;
          // The list's heading ("Blocks of step 3", "Steps", an options group's legend): where focus goes when the Undo is dismissed.
          const landing = group?.closest('fieldset, section, .steps-editor');
          const focusLanding = () => {
            const heading =
              landing?.querySelector<HTMLElement>(':scope > h4.blocks-heading, :scope > h2, :scope > legend, :scope > h3') ??
              (landing instanceof HTMLElement ? landing : undefined);
            if (heading && !heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
            heading?.focus();
          };
          onRemove?.(index);
          if (editor.remove) {
            // The editor offers an Undo and focuses it: not the next element's Remove, where a second Enter would remove it too.
            editor.remove(path, index, name, {
              restored: () => {
                onRestore?.(index);
                // Back on the restored element's heading (or first field).
                requestAnimationFrame(() => {
                  const back = group?.children[index]?.querySelector<HTMLElement>(
                    'h3[tabindex="-1"], h4[tabindex="-1"], h5[tabindex="-1"], input, select, textarea',
                  );
                  back?.focus();
                });
              },
              landing: focusLanding,
            });
            return;
          }
          editor.change(
            path,
            list().filter((_, i) => i !== index),
          );
          announce(`${name} removed.`);
          requestAnimationFrame(focusLanding);
        }}
      >
        Remove
      </button>
    </span>
  );
}
