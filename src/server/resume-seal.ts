import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** AES-256-GCM's nonce (NIST SP 800-38D's recommended 96 bits) and tag lengths, in bytes. */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals a draft kept for another device (docs/requirements.md §22; docs/decisions/034) at rest:
 * AES-256-GCM under a key of its own, derived from the server's secret and the draft's id (HKDF,
 * RFC 5869, SHA-256), its page's id authenticated with it. With `SECRET` set, a copy of the
 * database reads nothing; without it the server keeps its own secret in the database, and a copy
 * of the whole database holds the key too (docs/privacy.md: set `SECRET` in production). A sealed
 * draft moved to another id or page does not open.
 */
export class ResumeSeal {
  /** @param secret - the server's secret (`SECRET`, 32 characters or more, or its generated one). */
  constructor(private readonly secret: string) {}

  private key(id: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.secret, '', `resume-draft\n${id}`, 32));
  }

  /**
   * Seals `text` (the draft's JSON) for draft `id` of page `pageId`.
   * @returns base64url of the nonce, the tag and the ciphertext.
   */
  seal(id: string, pageId: string, text: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(id), nonce);
    cipher.setAAD(Buffer.from(pageId));
    const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), data]).toString('base64url');
  }

  /** The text {@link seal} sealed for draft `id` of page `pageId`; undefined when it does not open (another key, id or page, or changed). */
  open(id: string, pageId: string, sealed: string): string | undefined {
    try {
      const bytes = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key(id), bytes.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(pageId));
      decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
