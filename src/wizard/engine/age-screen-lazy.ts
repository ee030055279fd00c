import { lazy } from 'react';

/** The age screen's own chunk (requirements §20): only a page that has one loads it. */
const ageScreenChunk = () => import('./age-screen-page');

/**
 * The guardian's details and their rules (`guardian-fields.tsx`), a chunk the age screen's loads:
 * the engine needs them only after an age screen's answer (the review on the step that sends).
 */
export const guardianChunk = () => import('./guardian-fields');

/** The age screen, loaded as it is first shown, or ahead with {@link preloadAgeScreen} (a `React.lazy` component: shown inside a Suspense boundary). */
export const AgeScreen = /* @__PURE__ */ lazy(async () => ({ default: (await ageScreenChunk()).AgeScreen }));

/** Starts loading the age screen's chunk, for a page that has one, as the engine arrives. */
export function preloadAgeScreen(): void {
  void ageScreenChunk();
}

/** A minor's guardian's details, changeable on the step that sends ({@link guardianChunk}): shown inside a Suspense boundary. */
export const GuardianReview = /* @__PURE__ */ lazy(async () => ({ default: (await guardianChunk()).GuardianReview }));
