import { RichTextField } from './rich-text';
import {
  DndContext,
  KeyboardCode,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useId, useRef, useState, type ReactNode } from 'react';
import { BLOCK_COMPONENTS, type Block, type PersonalInfoField } from '../../shared/config';
import { announce } from '../announcer';
import { asArray, asText, fieldId, isObject, jsonPath, moveItem, type DraftPath } from './draft';
import { BLOCK_LABELS, BlockForm, draftFields, newBlock, personalLabel } from './block-forms';
import { FormItemEditor } from './rules-editor';
import { CheckboxField, ProblemText, TextField, useEditor, useField } from './fields';
import type { ListKeys } from './keys';
import { ListControls } from './list-controls';

/**
 * The "Steps" tab of the builder: the steps in order, each with its settings and its
 * blocks in order; steps and blocks are added, removed and reordered: dragged by their handle with
 * the mouse or a finger, or by keyboard (focus the handle, Space to pick up, the arrow keys to
 * move, Space to drop, Escape to cancel; dnd-kit's KeyboardSensor with its screen-reader
 * announcements), or with the "Up" and "Down" buttons.
 */
export function StepsEditor({ keys }: { keys: ListKeys }) {
  const { draft, change, readOnly } = useEditor();
  const steps = isObject(draft) ? asArray(draft.steps) : [];
  const stepKeys = keys.of('steps', steps.length);
  const stepName = (index: number) => {
    const step = steps[index];
    const name = isObject(step) ? asText(step.name) : '';
    return `step ${index + 1}${name ? `, ${name}` : ''}`;
  };
  const addStep = () => {
    change(['steps'], [...steps, { name: `Step ${steps.length + 1}`, blocks: [{ component: 'html', data: { html: `<h1>Step ${steps.length + 1}</h1>` } }] }]);
    announce(`Step ${steps.length + 1} added.`);
  };
  const anchor = useField(['steps']);
  return (
    <div className="steps-editor">
      <h2 id={anchor.id} tabIndex={-1}>
        Steps
      </h2>
      <ProblemText id={anchor.problemId} problems={anchor.problems} />
      <SortableList
        label="steps"
        ids={stepKeys}
        nameOf={stepName}
        onMove={(from, to) => {
          keys.move('steps', from, to);
          change(['steps'], moveItem(steps, from, to));
        }}
        className="step-list"
      >
        {(index, handle) => (
          <StepCard
            key={stepKeys[index]}
            index={index}
            count={steps.length}
            step={steps[index]}
            handle={handle}
            keys={keys}
            stepKey={stepKeys[index]!}
            name={stepName(index)}
          />
        )}
      </SortableList>
      {readOnly ? null : (
        <button type="button" className="secondary" onClick={addStep}>
          Add a step
        </button>
      )}
      <OtherRules />
    </div>
  );
}

/** The handle that drags an element of a sortable list (a button: focusable, and named with the element). */
type Handle = (name: string) => ReactNode;

/**
 * Where the Up and Down arrows move the element picked up by keyboard: one position a press,
 * whatever the heights of the elements. The dragged element's centre goes onto the centre of the
 * element above (below) the one it is over, which `closestCenter` then names. (dnd-kit's
 * `sortableKeyboardCoordinates` aims its top at the next element's top: with cards of very
 * different heights, a tall step's centre then lands past its neighbour, and one press skipped a
 * position, so a step could not be moved just above the short one under it.)
 */
export const oneStepCoordinates: KeyboardCoordinateGetter = (
  event,
  { active, currentCoordinates, context: { collisionRect, droppableRects, droppableContainers, over } },
) => {
  if (event.code !== KeyboardCode.Up && event.code !== KeyboardCode.Down) return undefined;
  event.preventDefault();
  if (!collisionRect) return undefined;
  const ordered = droppableContainers
    .getEnabled()
    .filter((container) => !container.disabled && droppableRects.has(container.id))
    .sort((a, b) => droppableRects.get(a.id)!.top - droppableRects.get(b.id)!.top);
  const at = ordered.findIndex((container) => container.id === (over?.id ?? active));
  const next = at < 0 ? undefined : ordered[at + (event.code === KeyboardCode.Up ? -1 : 1)];
  if (!next) return undefined;
  const target = droppableRects.get(next.id)!;
  return { x: currentCoordinates.x, y: currentCoordinates.y + target.top + target.height / 2 - (collisionRect.top + collisionRect.height / 2) };
};

/**
 * A vertical sortable list (dnd-kit): each element is given a drag handle; a drop reorders. The
 * announcements name the elements and their positions ("Picked up step 2, Introduce yourself, at
 * position 2 of 4").
 *
 * dnd-kit says "over" as soon as a drag starts (the element is over its own place), in the same
 * task as the pick-up and through the same live region, so the pick-up was replaced before a
 * screen reader read it (found by decision 021's outside attack on the submit path's edges; docs/decisions/021):
 * "over" is said only when the place changes, and the pick-up says the place it starts from.
 */
function SortableList({
  label,
  ids,
  nameOf,
  onMove,
  className,
  children,
}: {
  label: string;
  ids: string[];
  nameOf: (index: number) => string;
  onMove: (from: number, to: number) => void;
  className: string;
  children: (index: number, handle: Handle) => ReactNode;
}) {
  const { readOnly } = useEditor();
  // Scrolled at once (not smoothly) when a key moves an element out of view: no motion to wait for.
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: oneStepCoordinates, scrollBehavior: 'auto' }),
  );
  const position = (id: UniqueIdentifier | undefined) => ids.indexOf(String(id));
  const named = (id: UniqueIdentifier) => nameOf(position(id));
  /** Where the element being dragged was last said to be (its own id at the pick-up; null when over nothing). */
  const saidOver = useRef<UniqueIdentifier | null>(null);
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      saidOver.current = active.id;
      return `Picked up ${named(active.id)}, at position ${position(active.id) + 1} of ${ids.length}. Use the arrow keys to move it, Space to drop it, Escape to cancel.`;
    },
    onDragOver: ({ active, over }) => {
      // Nothing new to say (undefined keeps the region's text): the pick-up stays to be read.
      if ((over?.id ?? null) === saidOver.current) return undefined;
      saidOver.current = over?.id ?? null;
      return over ? `${named(active.id)} is over position ${position(over.id) + 1} of ${ids.length}.` : `${named(active.id)} is no longer over the list.`;
    },
    onDragEnd: ({ active, over }) =>
      over ? `${named(active.id)} dropped at position ${position(over.id) + 1} of ${ids.length}.` : `${named(active.id)} dropped where it was.`,
    onDragCancel: ({ active }) => `Moving ${named(active.id)} was cancelled; it is back at position ${position(active.id) + 1}.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = position(active.id);
    const to = position(over.id);
    if (from >= 0 && to >= 0) onMove(from, to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: `To reorder the ${label}, press Space or Enter to pick this one up, the up and down arrow keys to move it, Space or Enter to drop it, Escape to cancel.`,
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={readOnly}>
        <ol className={className}>
          {ids.map((id, index) => (
            <SortableItem key={id} id={id} readOnly={readOnly}>
              {(handle) => children(index, handle)}
            </SortableItem>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableItem({ id, readOnly, children }: { id: string; readOnly: boolean; children: (handle: Handle) => ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled: readOnly });
  const handle: Handle = (name) =>
    readOnly ? null : (
      <button type="button" ref={setActivatorNodeRef} className="drag-handle" {...attributes} {...listeners} aria-label={`Drag to reorder: ${name}`}>
        <span aria-hidden="true">⠿</span>
      </button>
    );
  return (
    <li
      ref={setNodeRef}
      data-list-item
      className={`sortable${isDragging ? ' dragging' : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      {children(handle)}
    </li>
  );
}

function StepCard({
  index,
  count,
  step,
  handle,
  keys,
  stepKey,
  name,
}: {
  index: number;
  count: number;
  step: unknown;
  handle: Handle;
  keys: ListKeys;
  stepKey: string;
  name: string;
}) {
  const { change, readOnly, draft } = useEditor();
  const path: DraftPath = ['steps', index];
  const anchor = useField(path);
  const blocks = isObject(step) ? asArray(step.blocks) : [];
  const scope = `blocks:${stepKey}`;
  const blockKeys = keys.of(scope, blocks.length);
  const title = isObject(step) ? asText(step.name) : '';
  const blockName = (b: number) => {
    const block = blocks[b];
    const component = isObject(block) ? asText(block.component) : '';
    return `block ${b + 1} of step ${index + 1}${component ? `, ${BLOCK_LABELS[component as Block['component']] ?? component}` : ''}`;
  };
  const [adding, setAdding] = useState<Block['component']>('select');
  // Where a new block goes (its index): after the block the team last changed something in (not
  // one only tabbed through), else at the end; the team can choose another place (decision 031).
  const [insertAt, setInsertAt] = useState<number>();
  const place = insertAt === undefined || insertAt > blocks.length ? blocks.length : insertAt;
  const addId = useId();
  const placeId = useId();
  const blocksAnchor = useField([...path, 'blocks']);
  return (
    <section className="step-card" aria-labelledby={anchor.id}>
      <div className="card-head">
        {handle(name)}
        <h3 id={anchor.id} tabIndex={-1}>
          Step {index + 1}
          {title ? `: ${title}` : ''}
        </h3>
        <ListControls
          path={['steps']}
          index={index}
          count={count}
          name={name}
          onMove={(from, to) => keys.move('steps', from, to)}
          onRemove={(at) => keys.remove('steps', at)}
          onRestore={(at) => keys.insert('steps', at)}
        />
      </div>
      <ProblemText id={anchor.problemId} problems={anchor.problems} />
      <div className="pair">
        <TextField path={[...path, 'name']} label={`Step ${index + 1}: name`} hint="Shown in the step bar." />
        <TextField path={[...path, 'continueButtonText']} label={`Step ${index + 1}: its Continue button (optional)`} optional />
      </div>
      <div className="pair">
        <CheckboxField path={[...path, 'hideConfirmButton']} label="Hide the Continue button" />
        <CheckboxField path={[...path, 'styles', 'grayBg']} label="Grey background" />
      </div>
      <RichTextField path={[...path, 'footer']} label={`Step ${index + 1}: footer (optional)`} optional />
      <h4 id={blocksAnchor.id} tabIndex={-1} className="blocks-heading">
        Blocks of step {index + 1}
      </h4>
      <ProblemText id={blocksAnchor.problemId} problems={blocksAnchor.problems} />
      <SortableList
        label={`blocks of step ${index + 1}`}
        ids={blockKeys}
        nameOf={blockName}
        onMove={(from, to) => {
          keys.move(scope, from, to);
          change([...path, 'blocks'], moveItem(blocks, from, to));
        }}
        className="block-list"
      >
        {(b, blockHandle) => (
          <BlockCard
            key={blockKeys[b]}
            blockKey={blockKeys[b]!}
            stepIndex={index}
            index={b}
            count={blocks.length}
            block={blocks[b]}
            handle={blockHandle}
            name={blockName(b)}
            scope={scope}
            keys={keys}
            onWorkedIn={() => setInsertAt(b + 1)}
          />
        )}
      </SortableList>
      {readOnly ? null : (
        <div className="add-row">
          <div className="field">
            <label htmlFor={addId}>New block for step {index + 1}</label>
            <select id={addId} value={adding} onChange={(event) => setAdding(event.target.value as Block['component'])}>
              {BLOCK_COMPONENTS.map((component) => (
                <option key={component} value={component}>
                  {BLOCK_LABELS[component]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={placeId}>Place</label>
            <select id={placeId} value={String(place)} onChange={(event) => setInsertAt(Number(event.target.value))}>
              {Array.from({ length: blocks.length + 1 }, (_, at) => (
                <option key={at} value={at}>
                  {at === blocks.length ? 'At the end' : at === 0 ? 'At the start' : `After ${blockName(at - 1).replace(/ of step \d+/, '')}`}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              keys.insert(scope, place);
              change([...path, 'blocks'], [...blocks.slice(0, place), newBlock(adding, draft), ...blocks.slice(place)]);
              // Another block added next goes after this one.
              setInsertAt(place + 1);
              announce(`${BLOCK_LABELS[adding]} added as block ${place + 1} of step ${index + 1}.`);
              // The new block, open, in view and focused at its heading: it may be far above the button.
              requestAnimationFrame(() => document.getElementById(fieldId(jsonPath([...path, 'blocks', place])))?.focus());
            }}
          >
            Add block to step {index + 1}
          </button>
        </div>
      )}
    </section>
  );
}

function BlockCard({
  blockKey,
  stepIndex,
  index,
  count,
  block,
  handle,
  name,
  scope,
  keys,
  onWorkedIn,
}: {
  blockKey: string;
  stepIndex: number;
  index: number;
  count: number;
  block: unknown;
  handle: Handle;
  name: string;
  scope: string;
  keys: ListKeys;
  /** Called as the team changes something in the block (its fields' changes bubble here): a new block then goes after it. */
  onWorkedIn: () => void;
}) {
  const path: DraftPath = ['steps', stepIndex, 'blocks', index];
  const anchor = useField(path);
  const component = isObject(block) ? asText(block.component) : '';
  const { problems } = useEditor();
  const at = jsonPath(path);
  // Folded to its heading (the list stays short to survey and reorder) until opened; open when just
  // added, or when a problem is in it (the summary's links open it too).
  const [open, setOpen] = useState(() => keys.fresh.has(blockKey));
  const troubled = problems.some((problem) => problem.path.startsWith(`${at}.`) || problem.path === at);
  // A group, not a region: a page's many blocks would be as many landmarks, named alike from step to step.
  return (
    // A change in a form field, or an edit in a rich-text field (which raises input events, not change events).
    <div role="group" className="block-card" aria-labelledby={anchor.id} onChange={onWorkedIn} onInput={onWorkedIn}>
      <div className="card-head">
        {handle(name)}
        <h5 id={anchor.id} tabIndex={-1}>
          Block {index + 1}: {BLOCK_LABELS[component as Block['component']] ?? (component || 'unknown')}
        </h5>
        <ListControls
          path={['steps', stepIndex, 'blocks']}
          index={index}
          count={count}
          name={name}
          onMove={(from, to) => keys.move(scope, from, to)}
          onRemove={(at) => keys.remove(scope, at)}
          onRestore={(at) => keys.insert(scope, at)}
        />
      </div>
      <ProblemText id={anchor.problemId} problems={anchor.problems} />
      <details className="block-details" open={open || troubled} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          Settings of block {index + 1}
          {summaryOf(block)}
        </summary>
        <BlockForm path={path} block={block} />
      </details>
    </div>
  );
}

/** A block's gist for its folded summary: its question, or its text's beginning. */
function summaryOf(block: unknown): string {
  const data = isObject(block) && isObject(block.data) ? block.data : {};
  const text = asText(
    data.label ??
      data.title ??
      data.html ??
      (Array.isArray(data.fields) ? data.fields.map((field) => personalLabel(field as PersonalInfoField)).join(', ') : ''),
  )
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? `: ${text.length > 60 ? `${text.slice(0, 59)}…` : text}` : '';
}

/** The rules of answers no block asks for (an item left behind when its block went): shown so they can be fixed or removed. */
function OtherRules() {
  const { draft, change, readOnly } = useEditor();
  const items = isObject(draft) ? asArray(draft.formItems) : [];
  const asked = draftFields(draft);
  const others = items.flatMap((item, index) => (isObject(item) && asked.has(asText(item.path)) ? [] : [index]));
  const anchor = useField(['formItems']);
  return (
    <section className="other-rules" aria-labelledby={anchor.id}>
      <h2 id={anchor.id} tabIndex={-1}>
        Rules of answers no block asks
      </h2>
      <ProblemText id={anchor.problemId} problems={anchor.problems} />
      {others.length === 0 ? <p className="hint">None: every rule belongs to a question above.</p> : null}
      <ol className="item-list">
        {others.map((index) => (
          <li key={index} className="item">
            <FormItemEditor answer={asText((items[index] as Record<string, unknown> | undefined)?.path)} index={index} pathEditable />
            {readOnly ? null : (
              <button
                type="button"
                className="secondary small"
                onClick={() =>
                  change(
                    ['formItems'],
                    items.filter((_, i) => i !== index),
                  )
                }
              >
                Remove these rules
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
