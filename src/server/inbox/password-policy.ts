import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../shared/admin';
import { DEFAULT_MESSAGES, formatMessage } from '../../shared/messages';

/**
 * The rule for a new password (docs/inbox.md, "The team"), as NIST SP 800-63B §5.1.1.2 says:
 * at least {@link MIN_PASSWORD_LENGTH} characters (counted as code points), at most
 * {@link MAX_PASSWORD_LENGTH}, no composition rules, and not a password known to be common or
 * breached — the list shipped with @zxcvbn-ts/language-common (some 49 000, from breach corpora),
 * also with digits or symbols only added before or after it (`Password2024!`), nor one character
 * repeated, nor the account's own address or its name part.
 */

/** The common passwords, in lower case: read on the first check (some 400 KB). */
let common: Promise<ReadonlySet<string>> | undefined;
const commonPasswords = () =>
  (common ??= import('@zxcvbn-ts/language-common').then(
    (module) => new Set((module.dictionary['passwords-common'] as string[]).map((password) => password.toLowerCase())),
  ));

/**
 * What is wrong with `password` as a new password for the account `email`, in words for its
 * owner; undefined when it may be used.
 */
export async function passwordProblem(password: string, email?: string): Promise<string | undefined> {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters: a few words you will remember make a strong one.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `${formatMessage(DEFAULT_MESSAGES.maxLength, { max: MAX_PASSWORD_LENGTH })}.`;
  const lower = password.normalize('NFKC').toLowerCase();
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/gu, '');
  if (new Set(lower).size === 1) return 'This password is one character repeated: choose another.';
  const address = email?.toLowerCase();
  if (address && (lower.includes(address) || (address.split('@')[0]!.length >= 4 && core === address.split('@')[0]))) {
    return 'This password is your e-mail address: choose another.';
  }
  const list = await commonPasswords();
  if (list.has(lower) || (core.length >= 4 && list.has(core))) return 'This password is on a list of common or breached passwords: choose another.';
  return undefined;
}
