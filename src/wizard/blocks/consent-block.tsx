import { consentPath } from '../../shared/blocks/consent';
import type { BlockOf } from '../../shared/config';
import { BoundCheckbox } from './checkbox-block';

/** A consent (requirements §21): a checkbox whose label is the text agreed to, at `consents.{purpose}`; its answer, given or not, is recorded. */
export function ConsentBlock({ block }: { block: BlockOf<'consent'> }) {
  return <BoundCheckbox path={consentPath(block.data.purpose)} label={block.data.label} />;
}
