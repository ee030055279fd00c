import { payloadPhoneE164 } from '../../shared/phone';
import { normalizeHandle, payloadPlatforms, type PlatformName } from '../../shared/platforms';
import type { ApplicationsTable } from './schema';

/**
 * The columns the inbox filters and searches on, derived from a stored payload (their meaning:
 * {@link ApplicationsTable}), and the normalised handles ({@link normalizeHandle}) for duplicate
 * detection.
 */
export type IndexedColumns = Pick<ApplicationsTable, 'first_name' | 'last_name' | 'country_code' | 'search_text' | 'platform_names' | 'phone_e164'> & {
  handles: { platform: PlatformName; handle: string }[];
};

/**
 * Derives {@link IndexedColumns} from a payload (DESIGN §6); any shape is
 * tolerated (rows stored before the inbox existed are backfilled with it).
 */
export function indexedColumns(payload: unknown): IndexedColumns {
  const info = (payload as { personalInfo?: Record<string, unknown> } | null)?.personalInfo ?? {};
  const string = (value: unknown) => (typeof value === 'string' ? value : '');
  const platforms = payloadPlatforms(payload);
  const handles = platforms.map(({ platform, handle }) => ({ platform, handle: normalizeHandle(platform, handle) }));
  const firstName = string(info.firstName);
  const lastName = string(info.lastName);
  return {
    first_name: firstName,
    last_name: lastName,
    country_code: string(info.countryCode),
    search_text: [`${firstName} ${lastName}`, string(info.emailAddress), ...platforms.map((p) => p.handle)].join(' ').toLowerCase(),
    platform_names: platforms.length > 0 ? `,${platforms.map((p) => p.platform).join(',')},` : '',
    phone_e164: payloadPhoneE164(info.phone),
    handles,
  };
}
