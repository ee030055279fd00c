/**
 * The engine's chunk (`wizard-engine-*.js`), imported by the page after its load event as a
 * `LoadedEngine` (engine/services.ts): the engine, the age screen (in a chunk of its own, which a page
 * without one never loads), the block registry it renders with and how it sends (the public page's submit). The
 * engine and the blocks meet here, so the engine imports no block (the blocks import the engine's
 * context).
 */
export { WizardEngine as Engine } from './engine/engine';
export { AgeScreen, preloadAgeScreen } from './engine/age-screen-lazy';
export { blockRegistry as blocks } from './blocks/registry';
export { browserSubmission as submission } from './services/submission';
