import { useSyncExternalStore } from 'react';

/**
 * The inbox's one polite live region (decision 020): mounted once by the app, outside its routes,
 * so it stays in the page while the list, an application and the next application replace each
 * other. A region created with its message already inside is often not read (screen readers
 * watch regions for changes), so views never render their own for what moves them on: they call
 * {@link announce}, which changes this region's text after it has been mounted.
 */
let said = { text: '', serial: 0 };
const listeners = new Set<() => void>();

/**
 * Says `text` in the live region (politely). The same text said twice is said twice: the region
 * is emptied first, then filled on the next frame.
 */
export function announce(text: string) {
  said = { text: '', serial: said.serial + 1 };
  const serial = said.serial;
  for (const listener of listeners) listener();
  requestAnimationFrame(() => {
    if (said.serial !== serial) return;
    said = { text, serial };
    for (const listener of listeners) listener();
  });
}

/** The live region's text now ('' when nothing has been said). */
export function announced(): string {
  return said.text;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The live region itself (visually hidden); the app renders it once. */
export function Announcer() {
  const text = useSyncExternalStore(subscribe, announced);
  return (
    <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">
      {text}
    </p>
  );
}
