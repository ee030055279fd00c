/**
 * The social platforms of SPEC §3 and where each one lives in the form values
 * and the payload. LinkedIn, Threads and Reddit are stored under
 * `fields.single.{platform}` (SPEC §3), so they reach the payload as the
 * flattened keys `single.linkedin.handle` and `single.linkedin.followers`.
 */

/** Every platform name, in SPEC §3 order. */
export const PLATFORM_NAMES = [
  'instagram',
  'facebook',
  'youtube',
  'twitter',
  'tiktok',
  'twitch',
  'website',
  'pinterest',
  'linkedin',
  'snapchat',
  'threads',
  'reddit',
] as const;

/** A platform name of SPEC §3. */
export type PlatformName = (typeof PLATFORM_NAMES)[number];

/** Platforms stored under `fields.single.{platform}` rather than `platforms.{platform}`. */
export const SINGLE_FIELD_PLATFORMS: readonly PlatformName[] = ['linkedin', 'threads', 'reddit'];

/** Platforms sent under the payload's `platforms` group (all but the single-field ones). */
export const PAYLOAD_PLATFORM_NAMES = PLATFORM_NAMES.filter((name) => !SINGLE_FIELD_PLATFORMS.includes(name));

/** Display names, used in accessible names such as 'Instagram handle'. */
export const PLATFORM_LABELS: Record<PlatformName, string> = {
  instagram: 'Instagram',
  facebook: 'Facebook',
  youtube: 'YouTube',
  twitter: 'Twitter',
  tiktok: 'TikTok',
  twitch: 'Twitch',
  website: 'Website',
  pinterest: 'Pinterest',
  linkedin: 'LinkedIn',
  snapchat: 'Snapchat',
  threads: 'Threads',
  reddit: 'Reddit',
};

/** The two values a platform asks for: handle + followers, or url + monthlyTraffic for website. */
export interface PlatformKeys {
  /** The identifying value; a platform without it is dropped from the payload (SPEC §7). */
  identity: 'handle' | 'url';
  /** The audience size, digits only. */
  audience: 'followers' | 'monthlyTraffic';
}

/** Which keys a platform asks for (SPEC §3: website has url and monthlyTraffic). */
export function platformKeys(name: PlatformName): PlatformKeys {
  return name === 'website'
    ? { identity: 'url', audience: 'monthlyTraffic' }
    : { identity: 'handle', audience: 'followers' };
}

/** The form-value path of a platform's group: `platforms.instagram` or `fields.single.linkedin`. */
export function platformPath(name: PlatformName): string {
  return SINGLE_FIELD_PLATFORMS.includes(name) ? `fields.single.${name}` : `platforms.${name}`;
}

/** Where a platform's public profile lives; `{handle}` is the handle without a leading `@`. */
const PROFILE_URLS: Record<Exclude<PlatformName, 'website'>, string> = {
  instagram: 'https://www.instagram.com/{handle}',
  facebook: 'https://www.facebook.com/{handle}',
  youtube: 'https://www.youtube.com/@{handle}',
  twitter: 'https://x.com/{handle}',
  tiktok: 'https://www.tiktok.com/@{handle}',
  twitch: 'https://www.twitch.tv/{handle}',
  pinterest: 'https://www.pinterest.com/{handle}',
  linkedin: 'https://www.linkedin.com/in/{handle}',
  snapchat: 'https://www.snapchat.com/add/{handle}',
  threads: 'https://www.threads.net/@{handle}',
  reddit: 'https://www.reddit.com/user/{handle}',
};

/**
 * The public profile address of a handle (issue 7: instagram.com/handle …);
 * for `website`, the URL itself with `https://` when it has no scheme. The
 * handle is URL-encoded, so whatever an applicant typed stays one path segment.
 */
export function profileUrl(platform: PlatformName, handle: string): string {
  if (platform === 'website') return /^https?:\/\//i.test(handle) ? handle : `https://${handle}`;
  return PROFILE_URLS[platform].replace('{handle}', encodeURIComponent(handle.replace(/^@/, '')));
}

/**
 * The key two applications share when they name the same account: lower case,
 * without a leading `@`; for `website` without scheme, `www.` and trailing `/`.
 */
export function normalizeHandle(platform: PlatformName, handle: string): string {
  const lower = handle.trim().toLowerCase();
  if (platform === 'website') return lower.replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/\/+$/, '');
  return lower.replace(/^@/, '');
}

/** One platform an application names: its handle (website: URL) and audience, as sent. */
export interface PayloadPlatform {
  platform: PlatformName;
  handle: string;
  followers?: string;
}

/**
 * The platforms of a stored payload (DESIGN §6), in SPEC §3 order: the
 * `platforms` group and the single-field platforms carried in `fields`
 * (`single.linkedin.handle`). Tolerates any shape: what is not a string is skipped.
 */
export function payloadPlatforms(payload: unknown): PayloadPlatform[] {
  const record = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
  const groups = record(record(payload).platforms);
  const fields = record(record(payload).fields);
  const found: PayloadPlatform[] = [];
  for (const platform of PLATFORM_NAMES) {
    const { identity, audience } = platformKeys(platform);
    const single = SINGLE_FIELD_PLATFORMS.includes(platform);
    const handle = single ? fields[`single.${platform}.${identity}`] : record(groups[platform])[identity];
    const followers = single ? fields[`single.${platform}.${audience}`] : record(groups[platform])[audience];
    if (typeof handle !== 'string' || handle === '') continue;
    found.push(typeof followers === 'string' && followers !== '' ? { platform, handle, followers } : { platform, handle });
  }
  return found;
}
