import { useWatch } from 'react-hook-form';
import type { BlockOf } from '../../shared/config';
import { SafeHtml } from '../controls/safe-html';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * Configuration HTML (headline, intro, thank-you), sanitised. `{email}` shows
 * the e-mail the applicant entered (SPEC §2 Creator Hub), escaped.
 */
export function HtmlBlock({ block }: { block: BlockOf<'html'> }) {
  const email = useWatch({ name: 'personalInfo.emailAddress' }) as unknown;
  const html = block.data.html.replaceAll('{email}', escapeHtml(typeof email === 'string' ? email.trim() : ''));
  return <SafeHtml className="block-html" html={html} />;
}
