import { useWatch } from 'react-hook-form';
import { EMAIL_PATH } from '../../shared/blocks/personal-info';
import type { BlockOf } from '../../shared/config';
import { fillEmail } from '../../shared/html';
import { SafeHtml } from '../controls/safe-html';

/**
 * Configuration HTML (headline, intro, thank-you), sanitised. `{email}` shows
 * the e-mail the applicant entered (requirements §2 Creator Hub), escaped.
 */
export function HtmlBlock({ block }: { block: BlockOf<'html'> }) {
  const email = useWatch({ name: EMAIL_PATH }) as unknown;
  return <SafeHtml className="block-html" html={fillEmail(block.data.html, email)} />;
}
