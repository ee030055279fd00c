/**
 * The field rules of requirements §5 as patterns, limits and predicates. Every rule is
 * written once here and used by the wizard's named validators, the server's
 * payload schema and the tests.
 */

/** Default country calling code (requirements §9). */
export const DEFAULT_CALLING_CODE = '1';

/** Longest single-line text answer accepted, in characters. */
export const MAX_TEXT_LENGTH = 200;
/** Longest multi-line answer (e.g. the dream campaign), in characters. */
export const MAX_LONG_TEXT_LENGTH = 5000;
/** Longest e-mail address, in characters (RFC 5321 §4.5.3.1.3 path limit). */
export const MAX_EMAIL_LENGTH = 254;
/** Longest platform handle, in characters. */
export const MAX_HANDLE_LENGTH = 100;
/** Longest digits-only value (followers, traffic, subscriber number). */
export const MAX_DIGITS_LENGTH = 15;
/** Longest ZIP or postal code, in characters. */
export const MAX_ZIP_LENGTH = 20;
/** Longest website URL, in characters. */
export const MAX_URL_LENGTH = 2048;
/** Most survey answers in one application's `fields`. */
export const MAX_FIELD_COUNT = 100;
/** Longest key in `fields` (a dotted path), in characters. */
export const MAX_FIELD_KEY_LENGTH = 100;

/**
 * An e-mail address: the WHATWG HTML `input type=email` rule ("valid e-mail address",
 * HTML Living Standard §4.10.5.1.5: an ASCII local part of letters, digits and
 * ``.!#$%&'*+/=?^_`{|}~-``, an `@`, and labels of letters, digits and inner hyphens, 63 at most),
 * narrowed to what mail can reach: the local part neither starts nor ends with a dot nor holds two
 * in a row (RFC 5322 §3.4.1 dot-atom), and the domain has a dot and ends in a top-level domain of
 * two or more letters. Refused: `a@b`, `ada@example`, `.ada@x.com`, `ada..x@x.com`, `<ada@x.com>`,
 * `mailto:ada@x.com`, `ada@x.com/`.
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;
/** Digits only (followers, monthly traffic, phone subscriber number). requirements §5. */
export const DIGITS_PATTERN = /^\d+$/;
/** ZIP / postal code: digits, hyphens and spaces only. requirements §5. */
export const ZIP_PATTERN = /^[\d\- ]+$/;
/**
 * An ITU-T E.164 country calling code, optionally with a NANP area code
 * (`44`, `1`, `1-684`), as listed in the country table (requirements §11).
 */
export const CALLING_CODE_PATTERN = /^\d{1,3}(?:-\d{3})?$/;
/** ISO 3166-1 alpha-2 country code. */
export const ISO_ALPHA2_PATTERN = /^[A-Z]{2}$/;
/** ISO 3166-2 subdivision code without its country prefix (`CA`, `ON`, `AE`). */
export const SUBDIVISION_PATTERN = /^[A-Z0-9]{1,3}$/;

/**
 * Code points that are never kept in an answer, whatever the field: Unicode control
 * characters (general category Cc: C0, DEL and C1 — NUL included, which PostgreSQL cannot store in
 * text), lone surrogates (Cs: not encodable as UTF-8, RFC 3629 §3) and the 66 noncharacters
 * (Unicode §23.7, e.g. U+FFFE). Long text allows tab, line feed and carriage return.
 */
const UNSTORABLE_IN_LINE = /[\p{Cc}\p{Cs}\p{Noncharacter_Code_Point}]/u;
const UNSTORABLE_IN_LONG_TEXT = /[^\P{Cc}\t\n\r]|[\p{Cs}\p{Noncharacter_Code_Point}]/u;

/**
 * True when a single-line value holds no control character, lone surrogate or noncharacter:
 * what is stored is valid UTF-8 that every store and CSV reader keeps as it is.
 */
export function isPlainText(value: string): boolean {
  return !UNSTORABLE_IN_LINE.test(value);
}

/** {@link isPlainText} for long text (survey answers): tab, line feed and carriage return are allowed. */
export function isPlainLongText(value: string): boolean {
  return !UNSTORABLE_IN_LONG_TEXT.test(value);
}

const URL_LIKE = /^(?:https?:\/\/|www\.)|^[^\s/]+\.[a-z]{2,}\//i;

/** True when `value` is undefined, null, an empty string, an empty array or `false`. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.length === 0;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** True when a string holds something other than white space. requirements §5 "not blank". */
export function isNotBlank(value: string): boolean {
  // Invisible characters alone (a zero-width space, a Hangul filler) are blank too.
  return value.replace(INVISIBLE_OR_PRIVATE_ALL, '').trim().length > 0;
}

/**
 * Characters that show nothing, or nothing of their own, and so make two different addresses or
 * user names look the same (`tw\u200bin@example.com` passed as a new applicant):
 * formatting characters (Cf: zero-width space, joiners, bidi controls, tags), Unicode's default
 * ignorable code points (Hangul fillers, variation selectors, the combining grapheme joiner),
 * private-use characters (Co), the blank braille pattern and the object replacement character.
 */
const INVISIBLE_OR_PRIVATE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Co}\u2800\uFFFC]/u;
const INVISIBLE_OR_PRIVATE_ALL = new RegExp(INVISIBLE_OR_PRIVATE.source, 'gu');

/**
 * True when `value` holds a character that shows nothing, or nothing of its own (formatting
 * characters Cf — zero-width space, joiners, bidi controls such as U+202E —, default ignorables,
 * private-use characters): what e-mail addresses and handles refuse, and tag names, since
 * each makes a look-alike of another value that a comparison cannot see.
 */
export function hasInvisibleCharacters(value: string): boolean {
  return INVISIBLE_OR_PRIVATE.test(value);
}
/**
 * Unicode's explicit directional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069;
 * Unicode Standard Annex #9): names may hold them (the wizard's name rule lets formatting
 * characters through, which some scripts need), but in a line of plain text they turn what
 * follows around ("Ada‮gnp.exe").
 */
const BIDI_CONTROLS = /[‪-‮⁦-⁩]/gu;

/** `value` without directional embeddings, overrides and isolates ({@link BIDI_CONTROLS}): for text set in a line not its own, as an e-mail's subject. */
export function withoutBidiControls(value: string): string {
  return value.replace(BIDI_CONTROLS, '');
}

/**
 * Combining marks (M) stacked three deep or more: the scripts YouTube and LinkedIn names may use
 * put one or two on a letter (Devanagari `नमस्ते`, Thai `สวัสดี`, a decomposed `é`), while a
 * stack draws over the letters around it ("Zalgo" text).
 */
const STACKED_MARKS = /\p{M}{3}/u;

/**
 * The mailbox an address reaches, as a key: lower case, without a subaddress (`+tag`, RFC 5233),
 * and for Gmail (whose addresses ignore dots and answer at googlemail.com too) without dots in the
 * local part. `Ada+1@Example.com` and `ada@example.com` share one; what one mailbox is sent (the
 * cap of confirmations a day) is counted by it. Other providers' own aliases are not known.
 */
export function mailboxKey(address: string): string {
  const at = address.lastIndexOf('@');
  let local = address.slice(0, at).toLowerCase();
  let domain = address.slice(at + 1).toLowerCase();
  const plus = local.indexOf('+');
  if (plus >= 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

/** True for a standard e-mail address ({@link EMAIL_PATTERN}) with no invisible or private-use character. */
export function isEmail(value: string): boolean {
  // RFC 5321 §4.5.3.1.1: a local part of at most 64 octets.
  const local = value.slice(0, value.lastIndexOf('@'));
  return value.length <= MAX_EMAIL_LENGTH && local.length <= 64 && EMAIL_PATTERN.test(value) && !INVISIBLE_OR_PRIVATE.test(value);
}

/**
 * A count as creators copy it from their profile: surrounding white space, the grouping
 * separators of a whole number in groups of three (`12,000`, `12.000`, `12 000`, `12'000`, Swiss
 * `12’000`, the no-break spaces of French formatting) and leading zeros removed, so it reads
 * `12000`. Anything else is returned trimmed, as it is: `12k`, `1.2M`, `12000+` and `1,2` stay what the digits rule refuses (requirements §5).
 */
export function normalizeCount(value: string): string {
  const trimmed = value.trim();
  const grouped = /^\d{1,3}([,.'\u2019 \u00a0\u202f])\d{3}(?:\1\d{3})*$/.exec(trimmed);
  const digits = grouped ? trimmed.split(grouped[1]!).join('') : trimmed;
  // Leading zeros say nothing (`012000` is 12000 followers); one zero stays a zero.
  return /^\d+$/.test(digits) ? digits.replace(/^0+(?=\d)/, '') : digits;
}

/** True for a count: {@link normalizeCount} leaves ASCII digits only. */
export function isCount(value: string): boolean {
  return isDigits(normalizeCount(value));
}

/** True for a non-empty string of ASCII digits. */
export function isDigits(value: string): boolean {
  return DIGITS_PATTERN.test(value);
}

/** True for a ZIP / postal code of digits, hyphens and spaces, with at least one digit. */
export function isZip(value: string): boolean {
  return ZIP_PATTERN.test(value) && /\d/.test(value);
}

/**
 * Endings of a bare domain or a site's address typed where a user name belongs (`ada.com`,
 * `instagram.com`, `ada.makes.net`): the generic top-level domains creators' own sites use most and
 * the platforms' own domains. A user name with a dot (`ada.makes`) stays a user name.
 */
const DOMAIN_LIKE = /\.(?:com|net|org|io|tv|me|co|be)$/i;

/**
 * True for a platform user name (requirements §5 'Enter your username only'; docs/decisions/015): no white space,
 * not a URL (no scheme, no `www.`, no `domain.tld/` prefix, no `/`), not an e-mail address or a
 * bare domain (`ada@example.com`, `ada.com`), not only punctuation (`@`, `.`, `@@ada`), and no
 * invisible or private-use character nor a stack of combining marks. `@name` and `name.with.dots` are fine. A
 * platform's own published rule narrows it further (`usernameFits` in platforms.ts).
 */
export function isHandle(value: string): boolean {
  const name = value.startsWith('@') ? value.slice(1) : value;
  return (
    /[\p{L}\p{N}]/u.test(name) &&
    !name.includes('@') &&
    !DOMAIN_LIKE.test(name) &&
    !/\s/.test(value) &&
    !URL_LIKE.test(value) &&
    !value.includes('/') &&
    !INVISIBLE_OR_PRIVATE.test(value) &&
    !STACKED_MARKS.test(value)
  );
}

/**
 * True for something that looks like a website address: an optional http(s)
 * scheme, a host with a dot whose last label (the top-level domain) starts with a letter, an
 * optional path, and no white space. requirements §5: 'Enter your website URL'. An IP address is
 * not a creator's website, and the URL parser reads a bare number (`12345`, `0`) as one: refused.
 * No user name or password before the host (`https://evil.com@ada.fr` is ada.fr, not evil.com).
 */
export function isWebsiteUrl(value: string): boolean {
  if (/\s/.test(value) || value.length > MAX_URL_LENGTH) return false;
  const withScheme = /^https?:\/\//i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(withScheme);
    return /^(?:[^.]+\.)+[a-z][^.]*$/.test(url.hostname) && /^https?:$/.test(url.protocol) && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
