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
