/**
 * Dotted-path access to plain objects (`personalInfo.phone.subscriber`), the
 * path syntax of form items (requirements §3) and of problem-details error paths.
 */

/**
 * Each path's keys, split once: the paths read are a page's own (its blocks, conditions and
 * rules), read for every application checked. Forgotten whole when it holds more than
 * {@link SPLIT_PATHS} (paths no page asks for).
 */
const splitPaths = new Map<string, readonly string[]>();
const SPLIT_PATHS = 4096;

function keysOf(path: string): readonly string[] {
  let keys = splitPaths.get(path);
  if (!keys) {
    if (splitPaths.size >= SPLIT_PATHS) splitPaths.clear();
    keys = path.split('.');
    splitPaths.set(path, keys);
  }
  return keys;
}

/** Reads the value at a dotted `path` of `source`; `undefined` when any step is missing. */
export function getPath(source: unknown, path: string): unknown {
  let current: unknown = source;
  for (const key of keysOf(path)) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Writes `value` at a dotted `path` of `target`, making the objects on the way (a value that is not
 * a plain object is replaced). Paths come from a page's configuration, whose checks refuse
 * prototype names (`__proto__`), never from a request.
 */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    node = node[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
  }
  node[keys.at(-1)!] = value;
}
