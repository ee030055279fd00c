/**
 * The social platforms of requirements §3 and where each one lives in the form values
 * and the payload. LinkedIn, Threads and Reddit are stored under
 * `fields.single.{platform}` (requirements §3), so they reach the payload as the
 * flattened keys `single.linkedin.handle` and `single.linkedin.followers`.
 */

/** Every platform name, in requirements §3 order. */
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

/** A platform name of requirements §3. */
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
  /** The identifying value; a platform without it is dropped from the payload (requirements §7). */
  identity: 'handle' | 'url';
  /** The audience size, digits only. */
  audience: 'followers' | 'monthlyTraffic';
}

/** Which keys a platform asks for (requirements §3: website has url and monthlyTraffic). */
export function platformKeys(name: PlatformName): PlatformKeys {
  return name === 'website' ? { identity: 'url', audience: 'monthlyTraffic' } : { identity: 'handle', audience: 'followers' };
}

/** The form-value path of a platform's group: `platforms.instagram` or `fields.single.linkedin`. */
export function platformPath(name: PlatformName): string {
  return SINGLE_FIELD_PLATFORMS.includes(name) ? `fields.single.${name}` : `platforms.${name}`;
}

/**
 * Each platform's published user-name rule: the characters and length it allows, the
 * leading `@` set aside. Each follows the platform's own help page, named beside it.
 */
export const USERNAME_RULES: Record<Exclude<PlatformName, 'website'>, RegExp> = {
  // Instagram Help Center, "Username": letters, numbers, periods and underscores, at most 30.
  instagram: /^[A-Za-z0-9._]{1,30}$/,
  // Threads profiles carry the Instagram username (Threads Help, "Create a Threads profile").
  threads: /^[A-Za-z0-9._]{1,30}$/,
  // TikTok Support, "Changing your username": 2–24 letters, numbers, underscores and periods, not
  // ending in a period.
  tiktok: /^(?=.{2,24}$)[A-Za-z0-9._]*[A-Za-z0-9_]$/,
  // YouTube Help, "Handle guidelines": 3–30 letters or numbers of any script, `_`, `-`, `.`, `·`.
  youtube: /^[\p{L}\p{N}\p{M}_.·-]{3,30}$/u,
  // X Help Center, "Help with username registration": at most 15 letters, numbers and underscores.
  twitter: /^[A-Za-z0-9_]{1,15}$/,
  // Twitch Help, "Username rules": 4–25 letters, numbers and underscores.
  twitch: /^[A-Za-z0-9_]{4,25}$/,
  // Facebook Help Center, "Username guidelines": at least 5 letters, numbers and periods (50 at most).
  facebook: /^[A-Za-z0-9.]{5,50}$/,
  // Pinterest Help, "Edit your username": 3–30 letters, numbers and underscores.
  pinterest: /^[A-Za-z0-9_]{3,30}$/,
  // LinkedIn Help, "Customize your public profile URL": 3–100 letters or numbers (hyphens in generated ones).
  linkedin: /^[\p{L}\p{N}-]{3,100}$/u,
  // Snapchat Support, "Username requirements": 3–15 characters, a letter first, then letters, numbers, `-`, `_`, `.`.
  snapchat: /^[A-Za-z][A-Za-z0-9._-]{2,14}$/,
  // Reddit Help, "Username rules": 3–20 letters, numbers, `-` and `_`.
  reddit: /^[A-Za-z0-9_-]{3,20}$/,
};

/**
 * Whether a user name fits its platform's published rule ({@link USERNAME_RULES}); the leading
 * `@` is allowed. For `website` (a URL, not a user name) always true.
 */
export function usernameFits(platform: PlatformName, handle: string): boolean {
  if (platform === 'website') return true;
  return USERNAME_RULES[platform].test(handle.startsWith('@') ? handle.slice(1) : handle);
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
 * The public profile address of a handle (instagram.com/handle …);
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
  if (platform === 'website')
    return lower
      .replace(/^https?:\/\//, '')
      .replace(/^www\./, '')
      .replace(/\/+$/, '');
  return lower.replace(/^@/, '');
}

/** One platform an application names: its handle (website: URL) and audience, as sent. */
export interface PayloadPlatform {
  platform: PlatformName;
  handle: string;
  followers?: string;
}

/**
 * The platforms of a stored payload (requirements §15), in requirements §3 order: the
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

/** Largest follower count read as a number: beyond it digits are not a count (2^53 − 1). */
const MAX_COUNTED_FOLLOWERS_DIGITS = 15;

/** An application's audience: the followers summed over its platforms, and the platform with the most. */
export interface Audience {
  /** Followers over every platform but the website (its number is monthly traffic); 0 when none is given. */
  totalFollowers: number;
  /** The platform with the most followers (the first in requirements §3 order on a tie); undefined when none has followers. */
  top?: { platform: PlatformName; followers: number };
}

/**
 * The audience of an application's platforms ({@link payloadPlatforms}): the inbox's total
 * followers and largest platform, sorted on and shown as the creator's reach. A
 * followers value that is not 1–15 digits counts as none.
 */
export function audienceOf(platforms: readonly PayloadPlatform[]): Audience {
  const audience: Audience = { totalFollowers: 0 };
  for (const { platform, followers } of platforms) {
    if (platform === 'website' || followers === undefined || !/^\d+$/.test(followers) || followers.length > MAX_COUNTED_FOLLOWERS_DIGITS) continue;
    const count = Number(followers);
    audience.totalFollowers += count;
    if (count > (audience.top?.followers ?? 0)) audience.top = { platform, followers: count };
  }
  return audience;
}

/** The hosts of each platform's profile pages, `www.` and `m.` aside. */
const PROFILE_HOSTS: Record<Exclude<PlatformName, 'website'>, readonly string[]> = {
  instagram: ['instagram.com'],
  facebook: ['facebook.com', 'fb.com'],
  youtube: ['youtube.com'],
  twitter: ['x.com', 'twitter.com'],
  tiktok: ['tiktok.com'],
  twitch: ['twitch.tv'],
  pinterest: ['pinterest.com'],
  linkedin: ['linkedin.com'],
  snapchat: ['snapchat.com'],
  threads: ['threads.net', 'threads.com'],
  reddit: ['reddit.com'],
};

/**
 * Where the user name sits in each platform's profile address: `@` in front of it (TikTok,
 * YouTube handles, Threads), after a fixed segment (`/in/` on LinkedIn, `/user/` or `/u/` on
 * Reddit), or the first segment itself, except the platform's own pages (`/p/…`, `/reel/…`,
 * `/watch`, `/home`, `/profile.php`…), which name no one.
 */
const PROFILE_PATHS: Record<Exclude<PlatformName, 'website'>, { at?: true; after?: readonly string[]; reserved?: readonly string[] }> = {
  instagram: { reserved: ['p', 'reel', 'reels', 'stories', 'explore', 'tv', 'accounts', 'direct', 'about', 'legal', 'developer'] },
  threads: { at: true },
  tiktok: { at: true },
  youtube: { at: true, after: ['c', 'user'] },
  twitter: {
    reserved: ['home', 'i', 'search', 'explore', 'hashtag', 'intent', 'share', 'settings', 'messages', 'notifications', 'login', 'signup', 'tos', 'privacy'],
  },
  twitch: { reserved: ['videos', 'directory', 'p', 'search', 'settings', 'downloads', 'jobs', 'login', 'signup'] },
  facebook: {
    reserved: [
      'profile.php',
      'pages',
      'groups',
      'watch',
      'events',
      'marketplace',
      'share',
      'people',
      'gaming',
      'login',
      'help',
      'photo.php',
      'story.php',
      'permalink.php',
    ],
  },
  pinterest: { reserved: ['pin', 'search', 'ideas', 'today', 'settings', 'business'] },
  linkedin: { after: ['in'] },
  snapchat: { at: true, after: ['add'] },
  reddit: { after: ['user', 'u'] },
};

/**
 * The user name in a pasted profile address ('Enter your username only' then offers it
 * in one click): `https://www.instagram.com/ada.makes/` → `ada.makes`, `tiktok.com/@ada` → `ada`,
 * `youtube.com/@ada` → `ada`, `x.com/ada` → `ada`, `linkedin.com/in/ada-l` → `ada-l`, Reddit's
 * `u/ada` → `ada`. Only the
 * platform's own hosts count, and only a name that fits the platform's rule ({@link usernameFits}).
 * @returns the user name without `@`, or undefined when the value is no profile address of it.
 */
export function handleFromProfileUrl(platform: PlatformName, value: string): string | undefined {
  if (platform === 'website') return undefined;
  const trimmed = value.trim();
  // Reddit's own short form of a profile, `u/ada` or `/u/ada`, as redditors write it.
  const short = platform === 'reddit' ? /^\/?u\/([^/\s]+)\/?$/i.exec(trimmed) : null;
  if (short) return usernameFits(platform, short[1]!) ? short[1] : undefined;
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase().replace(/^(?:www|m|mobile|old|new)\./, '');
  if (!PROFILE_HOSTS[platform].includes(host)) return undefined;
  const segments = url.pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return '';
      }
    });
  const [first = '', second = ''] = segments;
  const rule = PROFILE_PATHS[platform];
  let name: string | undefined;
  if (rule.at && first.startsWith('@')) name = first.slice(1);
  else if (rule.after) name = rule.after.includes(first.toLowerCase()) ? second : undefined;
  else if (!rule.at) name = rule.reserved?.includes(first.toLowerCase()) ? undefined : first;
  if (name === undefined) return undefined;
  return name !== '' && usernameFits(platform, name) ? name.replace(/^@/, '') : undefined;
}
