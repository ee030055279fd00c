import { formatJsonPath } from '../../shared/config';

/**
 * The builder's draft: the page's configuration as typed, a plain JSON value the forms
 * change one path at a time. Every change makes a new object along the path (the rest is shared),
 * so React sees what changed and the autosave and the preview compare drafts by identity.
 */

/** A path into the draft: keys and indexes, `['steps', 1, 'blocks', 0, 'data', 'label']`. */
export type DraftPath = readonly (string | number)[];

/** A JSON object of the draft (the configuration, a step, a block). */
export type DraftObject = Record<string, unknown>;

/** The JSON path of a draft path as the configuration's problems name it: `steps[1].blocks[0].data.label` (config.ts's `formatJsonPath`). */
export const jsonPath = (path: DraftPath): string => formatJsonPath(path);

/** The value at `path`, or undefined when any step is missing or not an object or array. */
export function getAt(source: unknown, path: DraftPath): unknown {
  let current = source;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/**
 * A copy of `source` with `value` at `path`: objects and arrays on the way are copied (missing
 * ones made: an array for a numeric key, else an object). `undefined` removes an object's key, or
 * an array's element.
 */
export function setAt(source: unknown, path: DraftPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const base: unknown = source !== null && typeof source === 'object' ? source : typeof key === 'number' ? [] : {};
  const child = setAt((base as Record<string | number, unknown>)[key], rest, value);
  if (Array.isArray(base)) {
    const copy = [...(base as unknown[])];
    if (child === undefined && rest.length === 0) copy.splice(Number(key), 1);
    else copy[Number(key)] = child;
    return copy;
  }
  const copy: DraftObject = { ...(base as DraftObject) };
  if (child === undefined && rest.length === 0) delete copy[key];
  else copy[key] = child;
  return copy;
}

/** `list` with the element at `from` moved to `to` (both 0-based). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
}

/** Whether `value` is a plain JSON object (not an array, not null). */
export const isObject = (value: unknown): value is DraftObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` when it is an array, else an empty one (a draft typed in the JSON view may hold anything). */
export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** `value` when it is text, else ''. */
export const asText = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

/**
 * The JSON paths that hold `path`, itself first, then each parent: `steps[1].blocks[0].data`,
 * `steps[1].blocks[0]`, `steps[1].blocks`, `steps[1]`, `steps`. A problem is shown at the first of
 * them that has a field.
 */
export function enclosingPaths(path: string): string[] {
  const paths = [path];
  let rest = path;
  for (;;) {
    const cut = Math.max(rest.lastIndexOf('.'), rest.lastIndexOf('['));
    if (cut <= 0) break;
    rest = rest.slice(0, cut);
    paths.push(rest);
  }
  return paths;
}

/**
 * The element id of the field at a JSON path (`steps[1].name` → `field-steps-1--name`): each
 * character outside `[A-Za-z0-9_]` becomes `-`, so the id is a valid fragment and selector.
 */
export const fieldId = (path: string): string => `field-${path.replace(/[^A-Za-z0-9_]/g, '-')}`;

/** The builder's tabs, and the one that shows the field at a JSON path. */
export type EditorTab = 'page' | 'steps' | 'messages' | 'publishing' | 'json';
export function tabOf(path: string): EditorTab {
  const first = /^[^.[]*/.exec(path)?.[0] ?? '';
  if (first === 'steps' || first === 'formItems') return 'steps';
  if (first === 'messages' || first === 'subdivisionNames') return 'messages';
  if (first === '(root)' || first === '$schema' || (first === 'styleConfig' && !path.startsWith('styleConfig.theme'))) return 'json';
  if (first === 'hosts' || first === 'opensAt' || first === 'closesAt' || first === 'maxApplications' || first === 'status') return 'publishing';
  return 'page';
}
