import { payloadPhoneE164 } from '../../shared/phone';
import { normalizeHandle, payloadPlatforms, type PlatformName } from '../../shared/platforms';

/** The columns the inbox filters and searches on, derived from a stored payload. */
export interface IndexedColumns {
  first_name: string;
  last_name: string;
  /** ISO 3166-1 alpha-2, or '' when the page did not ask. */
  country_code: string;
  /** Lower-cased name, e-mail and handles, one space apart, for `q` (issue 7 search). */
  search_text: string;
  /** `,instagram,tiktok,`: the platforms named, comma-delimited for a `like '%,name,%'` filter. */
  platform_names: string;
  /**
   * The phone in E.164 (`+447400123456`; issue 13), '' when the page did not ask or it was left out.
   * The payload keeps SPEC's calling code and subscriber digits; this is the form to dial.
   */
  phone_e164: string;
  /** The normalised handles ({@link normalizeHandle}), for duplicate detection. */
  handles: { platform: PlatformName; handle: string }[];
}

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
