import type { ReactNode } from 'react';
import type { Block, WizardConfig } from '../../shared/config';

/**
 * What the engine needs of the block components (requirements §14), passed in by the page
 * (`src/wizard/wizard-engine.ts` hands it the block registry): the engine imports no block.
 */
export interface BlockRegistry {
  /** Renders one block. */
  renderBlock(block: Block, key: number): ReactNode;
  /** The form values the blocks of step `index` read besides their own fields and conditions. */
  extraReads(config: WizardConfig, index: number): string[];
  /** Tasks that build the blocks' data lists ahead of need, each small enough for one idle period. */
  warmUpTasks(config: WizardConfig): (() => unknown)[];
  /**
   * Whether the page (wizard.tsx) renders a block as the block's component would, without the
   * form: a step of such blocks stays the page's when the engine arrives (decision 009).
   */
  rendersWithoutForm(this: void, block: Block): boolean;
}
