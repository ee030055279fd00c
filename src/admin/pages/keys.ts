import { moveItem } from './draft';

/**
 * Stable keys for the elements of the draft's lists (steps, each step's blocks): the configuration
 * has no ids, and dnd-kit's sortable lists and React's keys need one per element that follows it
 * when it moves. Each list (a scope) keeps its keys in order; the builder's own moves, inserts and
 * removals change them in step with the draft, and a list whose length changed otherwise (the
 * JSON view) gets keys added or dropped at its end.
 */
export class ListKeys {
  private readonly lists = new Map<string, string[]>();
  private next = 0;

  /** The keys of the list `scope` of `length` elements. */
  of(scope: string, length: number): string[] {
    let keys = this.lists.get(scope);
    if (!keys) this.lists.set(scope, (keys = []));
    while (keys.length < length) keys.push(`${scope}:${++this.next}`);
    if (keys.length > length) keys.length = length;
    return keys;
  }

  /** The element at `from` moved to `to`. */
  move(scope: string, from: number, to: number) {
    const keys = this.lists.get(scope);
    if (keys) this.lists.set(scope, moveItem(keys, from, to));
  }

  /** Keys of elements the team just added: their forms start open. */
  readonly fresh = new Set<string>();

  /** An element inserted at `index`; its key, marked {@link fresh}. */
  insert(scope: string, index: number): string {
    const key = `${scope}:${++this.next}`;
    let keys = this.lists.get(scope);
    if (!keys) this.lists.set(scope, (keys = []));
    keys.splice(index, 0, key);
    this.fresh.add(key);
    return key;
  }

  /** The element at `index` removed. */
  remove(scope: string, index: number) {
    this.lists.get(scope)?.splice(index, 1);
  }
}
