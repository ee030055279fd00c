import type { ConsentRecord } from '../shared/consents';
import { formatDateTime } from './format';

/** The text of configured HTML (a consent's label as the applicant saw it), as the browser reads it. */
function htmlText(html: string): string {
  // A space after each paragraph's end: its text would otherwise run into the next one's.
  const spaced = html.replace(/<\/(p|li|div|h[1-6])>/gi, '$& ');
  return (new DOMParser().parseFromString(spaced, 'text/html').body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * An application's consent records (requirements §21; docs/privacy.md, "Consents"), oldest first:
 * each consent as it was given or not when the application was stored — the text shown and its
 * SHA-256, the page version, the language, the privacy notice's version — a minor's parent's or
 * guardian's consent to the application as their page showed it, then each withdrawal.
 * Nothing on a page without consents.
 */
export function ConsentRecords({ records }: { records: readonly ConsentRecord[] }) {
  if (records.length === 0) return null;
  return (
    <section aria-labelledby="consents">
      <h2 id="consents">Consents</h2>
      <table className="history consents">
        <caption className="visually-hidden">What the creator agreed to, and withdrew</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Consent</th>
            <th scope="col">Answer</th>
            <th scope="col">Proof</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record, index) => (
            <tr key={index}>
              <td>
                <time dateTime={record.at}>{formatDateTime(record.at)}</time>
              </td>
              <td>
                {record.source === 'guardian' ? 'Parent or guardian' : <bdi>{record.purpose}</bdi>}: <span dir="auto">{htmlText(record.text)}</span>
              </td>
              <td>
                {record.source === 'withdrawal'
                  ? 'Withdrawn'
                  : record.source === 'guardian'
                    ? 'Given by a parent or guardian'
                    : record.given
                      ? 'Given'
                      : 'Not given'}
              </td>
              <td className="meta">
                {record.pageVersion === null ? 'Default page' : `Page version ${record.pageVersion}`}, {record.lang}
                {record.privacyVersion === null ? '' : `, privacy notice ${record.privacyVersion}`}; SHA-256{' '}
                <code title={record.sha256}>{record.sha256.slice(0, 12)}…</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
