import { randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../shared/team';

/**
 * Second factors of the inbox's sign-in (docs/inbox.md, "The team"; docs/decisions/030): an
 * authenticator app's time-based codes (RFC 6238 TOTP through otplib: SHA-1, six digits, 30-second
 * steps, one step either side taken for clocks that drift) and single-use recovery codes. The
 * libraries are read on first use: a server whose team never enrols pays nothing for them.
 */

/** The name an authenticator app lists the account under (`issuer` of the `otpauth:` URI). */
export const TOTP_ISSUER = 'Applications inbox';
/** A TOTP step, in seconds (RFC 6238 §4: 30). */
const STEP_SECONDS = 30;

/** A new authenticator app secret: 20 random bytes (RFC 4226 §4 recommends 160 bits), Base32. */
export async function newTotpSecret(): Promise<string> {
  const { generateSecret } = await import('otplib');
  return generateSecret();
}

/** The `otpauth://totp/…` URI an app enrols from, and it drawn as a QR code (SVG text). */
export async function totpEnrolment(secret: string, email: string): Promise<{ uri: string; qrSvg: string }> {
  const [{ generateURI }, { toString }] = await Promise.all([import('otplib'), import('qrcode')]);
  const uri = generateURI({ issuer: TOTP_ISSUER, label: email, secret });
  return { uri, qrSvg: await toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }) };
}

/**
 * The time step a six-digit `code` is right for, at `nowMs`, within one step either side, and
 * later than `afterStep` (a code taken once is never taken again); undefined otherwise.
 */
export async function totpStep(secret: string, code: string, nowMs: number, afterStep: number | null): Promise<number | undefined> {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const { verify } = await import('otplib');
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: STEP_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** The code an app shows for `secret` at `nowMs` (tests and the CLI's checks). */
export async function totpCode(secret: string, nowMs: number): Promise<string> {
  const { generate } = await import('otplib');
  return generate({ secret, epoch: Math.floor(nowMs / 1000) });
}

/** Whether `code` looks like a recovery code (ten letters and digits, a hyphen or space allowed) rather than an app's six digits. */
export const isRecoveryCode = (code: string) => /^[a-z0-9]{5}[\s-]?[a-z0-9]{5}$/i.test(code.trim());

/** {@link RECOVERY_CODE_COUNT} new recovery codes, `xxxxx-xxxxx` of lower-case letters and digits (about 50 bits each). */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((byte) => alphabet[byte % alphabet.length]!).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}
