import { createHmac, timingSafeEqual } from 'node:crypto';

/** What stands for the guardian's link in the message the log keeps: the link itself is added only as the message is sent. */
export const GUARDIAN_LINK_PLACEHOLDER = '#the-guardians-own-link-is-not-kept';

/**
 * The link a minor's parent or guardian answers through (requirements §20; docs/privacy.md):
 * `/guardian/{id}.{mac}`, the held application's id with an HMAC-SHA256 of it under the server's
 * secret, so it cannot be guessed or made for another application, and needs no session. It is
 * never stored (the e-mail log keeps {@link GUARDIAN_LINK_PLACEHOLDER}), so no team member can
 * answer in the guardian's place; it works until the request is answered (once) or its 7 days end.
 */
export class GuardianLinks {
  /**
   * @param secret - the server's key for these links (kept in the store as `guardian`).
   * @param publicUrl - the server's address (`PUBLIC_URL`).
   */
  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
  ) {}

  private mac(id: string): string {
    return createHmac('sha256', this.secret).update(`guardian\n${id}`).digest('base64url');
  }

  /** The link for the held application `id`. */
  url(id: string): string {
    return new URL(`/guardian/${encodeURIComponent(id)}.${this.mac(id)}`, this.publicUrl).toString();
  }

  /** The held application's id a link's last segment (`{id}.{mac}`) names, when its MAC is exactly right (compared in constant time); else undefined. */
  verify(token: string): string | undefined {
    const dot = token.lastIndexOf('.');
    if (dot <= 0 || token.length > 200) return undefined;
    const id = token.slice(0, dot);
    const expected = Buffer.from(this.mac(id));
    const given = Buffer.from(token.slice(dot + 1));
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
  }
}
