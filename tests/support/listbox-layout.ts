import { vi } from 'vitest';
import { MENU_MAX_HEIGHT_PX } from '../../src/wizard/controls/select';

/**
 * happy-dom lays nothing out: gives a select's list and its options the sizes a browser would
 * (options 44 px, the list its maximum height), so the windowed list renders what fills it.
 * Call in `beforeEach`; undo with `vi.restoreAllMocks()`.
 */
export function layOutListboxes(): void {
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.getAttribute('role') === 'option' ? 44 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.getAttribute('role') === 'listbox' ? MENU_MAX_HEIGHT_PX : 0;
  });
}
