import { createHmac, timingSafeEqual } from 'node:crypto';

/** The scope of a digest's unsubscription: every page the member gets the digest of (no page id has `*`). */
export const DIGEST_SCOPE = '*digest';

/**
 * One-click unsubscription links for the team's notifications (RFC 8058; docs/email.md): a URL per
 * member and scope (a page's id, or {@link DIGEST_SCOPE}) that carries an HMAC-SHA256 of both
 * under the server's secret, so it cannot be made for another member or page, and needs no
 * session (a mail client posts it).
 */
export class UnsubscribeLinks {
  /**
   * @param secret - the server's key for these links (kept in the store as `unsubscribe`).
   * @param publicUrl - the server's address (`PUBLIC_URL`).
   */
  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
  ) {}

  private mac(userId: string, scope: string): Buffer {
    return createHmac('sha256', this.secret).update(`unsubscribe\n${userId}\n${scope}`).digest();
  }

  /** The link (`/api/email/unsubscribe?u=…&p=…&t=…`) that turns `userId`'s notifications of `scope` off. */
  url(userId: string, scope: string): string {
    const url = new URL('/api/email/unsubscribe', this.publicUrl);
    url.searchParams.set('u', userId);
    url.searchParams.set('p', scope);
    url.searchParams.set('t', this.mac(userId, scope).toString('base64url'));
    return url.toString();
  }

  /** Whether `token` is exactly the link's for `userId` and `scope` (compared as written, in constant time: base64url decoding forgives stray characters). */
  verify(userId: string, scope: string, token: string): boolean {
    const expected = Buffer.from(this.mac(userId, scope).toString('base64url'));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
