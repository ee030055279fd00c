import type { ComponentType } from 'react';
import { blockDefinition } from '../../shared/blocks';
import type { Block, WizardConfig } from '../../shared/config';
import type { BlockRegistry } from '../engine/block-registry';
import { CheckboxBlock } from './checkbox-block';
import { ConsentBlock } from './consent-block';
import { HtmlBlock } from './html-block';
import { PersonalInfoBlock, personalInfoWarmUp } from './personal-info-block';
import { PlatformsBlock } from './platforms-block';
import { SelectBlock } from './select-block';
import { TextFieldBlock } from './text-field-block';
import { YesNoBlock } from './yes-no-block';

/**
 * The block component registry (requirements §14): a configuration's
 * `blocks[].component` names one of these. Adding a component is its shared module in
 * src/shared/blocks (schema, paths, rules, answer columns), its React file and one line here.
 */
export const BLOCK_COMPONENTS: { [C in Block['component']]: ComponentType<{ block: Extract<Block, { component: C }> }> } = {
  html: HtmlBlock,
  personalInfo: PersonalInfoBlock,
  platforms: PlatformsBlock,
  select: SelectBlock,
  yesNo: YesNoBlock,
  textField: TextFieldBlock,
  checkbox: CheckboxBlock,
  consent: ConsentBlock,
};

/** Renders one block through the registry. */
export function renderBlock(block: Block, key: string | number) {
  const Component = BLOCK_COMPONENTS[block.component] as ComponentType<{ block: Block }>;
  return <Component key={key} block={block} />;
}

/** The form values the blocks of step `index` read besides their own fields and conditions (their shared definitions' `reads`). */
export function extraReads(config: WizardConfig, index: number): string[] {
  return [...new Set(config.steps[index]?.blocks.flatMap((block) => blockDefinition(block).reads ?? []) ?? [])];
}

/**
 * Work a block's first render would otherwise do, by component: tasks that build its lists
 * ahead of need (see {@link warmUpTasks}). Components without lists have none.
 */
const BLOCK_WARM_UPS: { [C in Block['component']]?: (block: Extract<Block, { component: C }>, config: WizardConfig) => (() => unknown)[] } = {
  personalInfo: (block, config) => personalInfoWarmUp(block, config.lang),
};

/**
 * The tasks that prepare every block of the configuration's steps (their data lists), each
 * small enough to run in one idle period; the engine runs them while the applicant reads.
 */
export function warmUpTasks(config: WizardConfig): (() => unknown)[] {
  return config.steps.flatMap((step) =>
    step.blocks.flatMap((block) => {
      const warmUp = BLOCK_WARM_UPS[block.component] as ((block: Block, config: WizardConfig) => (() => unknown)[]) | undefined;
      return warmUp ? warmUp(block, config) : [];
    }),
  );
}

/**
 * Whether the page renders a block as its component does, without the form: configuration HTML
 * without the applicant's e-mail (`{email}`, which {@link HtmlBlock} fills in from the form), as
 * the page's own step shows it before the engine arrives (wizard.tsx).
 */
export function rendersWithoutForm(block: Block): boolean {
  return block.component === 'html' && !block.data.html.includes('{email}');
}

/** The registry as the engine receives it (src/wizard/wizard-engine.ts). */
export const blockRegistry: BlockRegistry = { renderBlock, extraReads, warmUpTasks, rendersWithoutForm };
