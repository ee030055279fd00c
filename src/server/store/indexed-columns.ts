import { payloadPhoneE164 } from '../../shared/phone';
import { audienceOf, normalizeHandle, payloadPlatforms, type PlatformName } from '../../shared/platforms';
import type { ApplicationsTable } from './schema';

/**
 * The columns the inbox filters and searches on, derived from a stored payload (their meaning:
 * {@link ApplicationsTable}), and the normalised handles ({@link normalizeHandle}) for duplicate
 * detection.
 */
export type IndexedColumns = Pick<
  ApplicationsTable,
  | 'first_name'
  | 'last_name'
  | 'country_code'
  | 'search_text'
  | 'platform_names'
  | 'phone_e164'
  | 'total_followers'
  | 'top_platform'
  | 'top_followers'
  | 'sort_name'
> & {
  handles: { platform: PlatformName; handle: string }[];
  /** The survey answers the answer filters read ({@link answerRows}). */
  answers: { key: string; value: string }[];
};

/**
 * Longest answer an answer row keeps, in characters: a choice, a yes/no, a short text whole; a
 * longer text its first 200 (it is counted as answered by the summary, and searched in the
 * payload by `contains`). Bounds the rows' index entries (PostgreSQL's B-tree takes ~2 700 bytes).
 */
export const MAX_ANSWER_ROW_LENGTH = 200;

/**
 * The survey answers of a payload as the answer filters and the summary read them: each
 * `fields` entry, the single-field platforms aside, cut to {@link MAX_ANSWER_ROW_LENGTH}
 * characters, and for a multi-select answer (requirements §7 joins its options with ', ') each option too,
 * so a filter on "Thinking Putty" finds "Thinking Putty, Land of Dough".
 */
export function answerRows(payload: unknown): { key: string; value: string }[] {
  const fields = (payload as { fields?: unknown } | null)?.fields;
  if (typeof fields !== 'object' || fields === null) return [];
  const rows: { key: string; value: string }[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (key.startsWith('single.') || typeof value !== 'string' || value === '') continue;
    if (value.length > MAX_ANSWER_ROW_LENGTH) {
      // By code points (at most 800 bytes), so a character outside the BMP is never cut in half.
      rows.push({ key, value: Array.from(value).slice(0, MAX_ANSWER_ROW_LENGTH).join('') });
      continue;
    }
    for (const part of new Set([value, ...(value.includes(', ') ? value.split(', ') : [])])) if (part !== '') rows.push({ key, value: part });
  }
  return rows;
}

/**
 * Derives {@link IndexedColumns} from a payload (requirements §15); any shape is
 * tolerated (rows stored before the inbox existed are backfilled with it).
 */
export function indexedColumns(payload: unknown): IndexedColumns {
  const info = (payload as { personalInfo?: Record<string, unknown> } | null)?.personalInfo ?? {};
  const string = (value: unknown) => (typeof value === 'string' ? value : '');
  const platforms = payloadPlatforms(payload);
  const handles = platforms.map(({ platform, handle }) => ({ platform, handle: normalizeHandle(platform, handle) }));
  const firstName = string(info.firstName);
  const lastName = string(info.lastName);
  const audience = audienceOf(platforms);
  return {
    first_name: firstName,
    last_name: lastName,
    // Copied to the answer rows not counted per value by the answer index (migration 029): a change
    // of an application's country after its submit would have to change them too.
    country_code: string(info.countryCode),
    search_text: [`${firstName} ${lastName}`, string(info.emailAddress), ...platforms.map((p) => p.handle)].join(' ').toLowerCase(),
    platform_names: platforms.length > 0 ? `,${platforms.map((p) => p.platform).join(',')},` : '',
    phone_e164: payloadPhoneE164(info.phone),
    total_followers: audience.totalFollowers,
    top_platform: audience.top?.platform ?? '',
    top_followers: audience.top?.followers ?? 0,
    sort_name: `${firstName} ${lastName}`.trim().toLowerCase(),
    handles,
    answers: answerRows(payload),
  };
}
