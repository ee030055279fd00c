/**
 * The engine's chunk (`wizard-engine-*.js`), imported by the page after its load event as a
 * `LoadedEngine` (engine/services.ts): the engine, the age screen (in a chunk of its own, which a page
 * without one never loads), the block registry it renders with and how it sends (the public page's submit). The
 * engine and the blocks meet here, so the engine imports no block (the blocks import the engine's
 * context).
 */
import { lazy } from 'react';

export { WizardEngine as Engine } from './engine/engine';

/** The age screen's own chunk (requirements §20): only a page that has one loads it. */
const ageScreenChunk = () => import('./engine/age-screen');
/** The age screen, loaded as it is first shown, or ahead with {@link preloadAgeScreen} (a `React.lazy` component: shown inside a Suspense boundary). */
export const AgeScreen = lazy(async () => ({ default: (await ageScreenChunk()).AgeScreen }));
/** Starts loading the age screen's chunk, for a page that has one, as the engine arrives. */
export function preloadAgeScreen(): void {
  void ageScreenChunk();
}
export { blockRegistry as blocks } from './blocks/registry';
export { browserSubmission as submission } from './services/submission';
export { createAgeScreenLock as ageScreenLock } from './services/age-screen-lock';
