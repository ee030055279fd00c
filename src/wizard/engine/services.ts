import type { ComponentType } from 'react';
import type { WizardConfig } from '../../shared/config';
import type { Analytics } from '../services/analytics';
import type { DraftStore } from '../services/drafts';
import type { BlockRegistry } from './block-registry';
import type { EngineServices, Submission, WizardEngineProps } from './engine';
import type { PageAgeScreenProps } from './age-screen';

/** The engine's chunk (`src/wizard/wizard-engine.ts`): the engine, the block components it renders and how it sends. */
export interface LoadedEngine {
  Engine: ComponentType<WizardEngineProps>;
  /**
   * The age screen (requirements §20), shown by the page before the steps that ask about the person;
   * it may suspend while its own chunk loads (the page shows it inside a Suspense boundary). It
   * keeps that it ended the wizard where it runs: the public page's in localStorage
   * (age-screen-page.tsx, in its own chunk), the preview's in memory (trying the screen must not
   * lock the builder's browser, and its build holds no storage code).
   */
  AgeScreen: ComponentType<PageAgeScreenProps>;
  /** Starts loading the age screen where it is a chunk of its own (called as the engine arrives on a page that has one). */
  preloadAgeScreen?: () => void;
  blocks: BlockRegistry;
  submission: Submission;
}

/**
 * What the page (`WizardPage`, `Wizard`) and its engine receive from where they run instead of
 * importing it (docs/decisions/018, "The first step's rendering"; docs/decisions/021, "Preview"):
 * - the public page (`main.tsx`): the browser's services (`src/wizard/services/browser.ts`) and the
 *   engine's chunk, which brings the submit (`LoadedEngine.submission`);
 * - the live preview (`src/wizard/preview/preview-services.ts`): drafts in memory, no analytics or
 *   error reports, no focus taken from the builder, and with its engine a submit that sends nothing;
 * - the server's rendering of the first step (`src/wizard/render-first-step.tsx`): none, so the
 *   server never loads the engine, drafts, analytics or error reporting.
 */
export interface WizardServices extends Pick<EngineServices, 'focusHeading'> {
  /** The page's draft store (requirements §4, "nothing typed is lost"); created once per configuration. */
  drafts(config: WizardConfig): DraftStore;
  /** The page's analytics with its funnel beacons (requirements §7); created once per configuration. */
  analytics(config: WizardConfig): Analytics;
  /** Reports a render error the page's error boundary caught (requirements §7). Never throws. */
  reportError(error: unknown, componentStack?: string): void;
  /**
   * Imports the engine in its own chunk, called after the page's load event, so the welcome step
   * paints with React, the layout and the sanitiser only ("fast on a phone"). Absent: the page
   * shows the first step only (the server's rendering, which runs no effect, never calls it).
   */
  loadEngine?: () => Promise<LoadedEngine>;
  /**
   * What the page says on its error line as it starts: set by a link to continue on another device
   * that no longer works (`services/resume.ts`; requirements §22). Absent: nothing.
   */
  notice?: string;
}
