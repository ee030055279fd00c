import { lazy } from 'react';

/** The age screen's own chunk (requirements §20): only a page that has one loads it. */
const ageScreenChunk = () => import('./age-screen');

/** The age screen, loaded as it is first shown, or ahead with {@link preloadAgeScreen} (a `React.lazy` component: shown inside a Suspense boundary). */
export const AgeScreen = lazy(async () => ({ default: (await ageScreenChunk()).AgeScreen }));

/** Starts loading the age screen's chunk, for a page that has one, as the engine arrives. */
export function preloadAgeScreen(): void {
  void ageScreenChunk();
}
