/**
 * Dotted-path access to plain objects (`personalInfo.phone.subscriber`), the
 * path syntax of form items (SPEC §3) and of problem-details error paths.
 */

/** Reads the value at a dotted `path` of `source`; `undefined` when any step is missing. */
export function getPath(source: unknown, path: string): unknown {
  let current: unknown = source;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
