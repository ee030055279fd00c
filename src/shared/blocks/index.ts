import type { z } from '../schema-parts';
import type { BlockDefinition } from './block';
import { CheckboxBlockSchema, checkbox } from './checkbox';
import { ConsentBlockSchema, consent } from './consent';
import { HtmlBlockSchema, html } from './html';
import { PersonalInfoBlockSchema, personalInfo } from './personal-info';
import { PlatformsBlockSchema, platforms } from './platforms';
import { SelectBlockSchema, select } from './select';
import { TextFieldBlockSchema, textField } from './text-field';
import { YesNoBlockSchema, yesNo } from './yes-no';

/**
 * The block components of the registry (requirements §14), one shared module each. Adding a component is
 * its module here (schema and {@link BlockDefinition}), one entry in each list below, and its React
 * file in the wizard's registry.
 */

/** Every block's data schema, for the configuration's discriminated union on `component`. */
export const BLOCK_SCHEMAS = [
  HtmlBlockSchema,
  PersonalInfoBlockSchema,
  PlatformsBlockSchema,
  SelectBlockSchema,
  YesNoBlockSchema,
  TextFieldBlockSchema,
  CheckboxBlockSchema,
  ConsentBlockSchema,
] as const;

/** Any block of the component registry, as its schema parses it (the configuration's union on `component`). */
export type Block = z.infer<(typeof BLOCK_SCHEMAS)[number]>;

const DEFINITIONS: { [C in Block['component']]: BlockDefinition<Extract<Block, { component: C }>> } = {
  html,
  personalInfo,
  platforms,
  select,
  yesNo,
  textField,
  checkbox,
  consent,
};

/**
 * Why a `component` block's answer may not sit at `path` (split into its segments: a path another
 * kind of block reads as its own), or undefined.
 */
export function reservedPathProblem(segments: readonly string[], component: string): string | undefined {
  for (const definition of Object.values(DEFINITIONS) as BlockDefinition<unknown>[]) {
    const reason = definition.reservedPath?.(segments, component);
    if (reason) return reason;
  }
  return undefined;
}

/** The groups of answers blocks own (`personalInfo`, `platforms`: {@link BlockDefinition.group}). */
export const ANSWER_GROUPS: readonly string[] = (Object.values(DEFINITIONS) as BlockDefinition<unknown>[]).flatMap((definition) =>
  definition.group ? [definition.group] : [],
);

/** A block's definition: its paths, rules, starting values and answer columns. */
export function blockDefinition(block: Block): BlockDefinition<Block> {
  return DEFINITIONS[block.component] as BlockDefinition<Block>;
}

export type { AnswerSource, BlockDefinition, Choice, PageField, PageView, Rule, ValidationTarget, ValueKind } from './block';
