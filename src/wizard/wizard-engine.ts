/**
 * The engine's chunk (`wizard-engine-*.js`), imported by the page after its load event as a
 * `LoadedEngine` (engine/services.ts): the engine, the age screen, the block registry it renders with and how it
 * sends (the public page's submit). The
 * engine and the blocks meet here, so the engine imports no block (the blocks import the engine's
 * context).
 */
export { WizardEngine as Engine } from './engine/engine';
export { AgeScreen } from './engine/age-screen';
export { blockRegistry as blocks } from './blocks/registry';
export { browserSubmission as submission } from './services/submission';
export { createAgeScreenLock as ageScreenLock } from './services/age-screen-lock';
