import type { ComponentType } from 'react';
import type { Block } from '../../shared/config';
import { CheckboxBlock } from './checkbox-block';
import { HtmlBlock } from './html-block';
import { PersonalInfoBlock } from './personal-info-block';
import { PlatformsBlock } from './platforms-block';
import { SelectBlock } from './select-block';
import { TextFieldBlock } from './text-field-block';
import { YesNoBlock } from './yes-no-block';

/**
 * The block component registry (DESIGN §5): a configuration's
 * `blocks[].component` names one of these. Adding a component is one file,
 * its data schema in src/shared/config.ts and one line here.
 */
export const BLOCK_COMPONENTS: { [C in Block['component']]: ComponentType<{ block: Extract<Block, { component: C }> }> } = {
  html: HtmlBlock,
  personalInfo: PersonalInfoBlock,
  platforms: PlatformsBlock,
  select: SelectBlock,
  yesNo: YesNoBlock,
  textField: TextFieldBlock,
  checkbox: CheckboxBlock,
};

/** Renders one block through the registry. */
export function renderBlock(block: Block, key: string | number) {
  const Component = BLOCK_COMPONENTS[block.component] as ComponentType<{ block: Block }>;
  return <Component key={key} block={block} />;
}
