import { createHmac, timingSafeEqual } from 'node:crypto';
import { RESUME_HASH } from '../../shared/resume';

/** What stands for a guardian's link in the message the log keeps: the link itself is added only as the message is sent. */
export const GUARDIAN_LINK_PLACEHOLDER = '#the-guardians-own-link-is-not-kept';
/** What stands for a creator's link to withdraw a consent in the confirmation the log keeps. */
export const CONSENT_LINK_PLACEHOLDER = '#the-creators-own-link-is-not-kept';

/** What stands for an invitation's link in the message the log keeps (docs/inbox.md, "The team"). */
export const INVITATION_LINK_PLACEHOLDER = '#the-invitees-own-link-is-not-kept';
/** What stands for a password reset's link in the message the log keeps. */
export const RESET_LINK_PLACEHOLDER = '#the-members-own-reset-link-is-not-kept';
/** What stands for an applicant's link to continue on another device in the message the log keeps. */
export const RESUME_LINK_PLACEHOLDER = '#the-applicants-own-resume-link-is-not-kept';

/**
 * The inbox's pages an invitation's and a reset's links open; the link's secret follows in the
 * fragment (`#{id}.{mac}`), which a browser never sends: no server, proxy or log sees it.
 */
export const TEAM_LINK_PATHS = { invitation: '/admin/invitation', passwordReset: '/admin/reset-password' } as const;

/** The paths the e-mails' signed links open, each followed by the link's secret (`{id}.{mac}`): a guardian's answer, a creator's consents. */
export const SIGNED_LINK_PATHS = { guardian: '/guardian/', consents: '/consents/' } as const;

/**
 * Links that are their own proof, for someone without a session (requirements §20, §21;
 * docs/privacy.md): `{path}{id}.{mac}`, an id with an HMAC-SHA256 of it and the links' `scope`
 * under the server's secret, so a link cannot be guessed, or made for another id or for the other
 * kind of link. They are never stored: the e-mail log keeps a placeholder where one was, so no one
 * reading it can act for its recipient.
 * - a minor's parent or guardian answers through `/guardian/{id}.{mac}` (the held application's id);
 * - a creator withdraws a consent through `/consents/{id}.{mac}` (the application's id);
 * - an invitee accepts through `/admin/invitation#{id}.{mac}` (the invitation's link id) and a member
 *   resets a password through `/admin/reset-password#{id}.{mac}` (the reset's id): the secret in the
 *   fragment, read by the inbox's page and sent in a request's body;
 * - an applicant continues on another device through `/?page={pageId}#resume={id}.{mac}` (the draft's
 *   id; {@link token}): the page's wizard reads the fragment and asks for the draft with it.
 */
export class SignedLinks {
  /**
   * @param secret - the server's key for these links (kept in the store).
   * @param publicUrl - the server's address (`PUBLIC_URL`).
   * @param kind - the links' scope (part of what is signed) and path (`/guardian/`).
   */
  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
    private readonly kind: { scope: string; path: string },
  ) {}

  private mac(id: string): string {
    return createHmac('sha256', this.secret).update(`${this.kind.scope}\n${id}`).digest('base64url');
  }

  /** The link's secret for `id`: `{id}.{mac}`. */
  token(id: string): string {
    return `${encodeURIComponent(id)}.${this.mac(id)}`;
  }

  /** The link for `id`: `{path}{id}.{mac}` (a path ending in `/`), or `{path}#{id}.{mac}` (the secret in the fragment). */
  url(id: string): string {
    const token = this.token(id);
    return new URL(this.kind.path.endsWith('/') ? `${this.kind.path}${token}` : `${this.kind.path}#${token}`, this.publicUrl).toString();
  }

  /** The id a link's last segment (`{id}.{mac}`) names, when its MAC is exactly right (compared in constant time); else undefined. */
  verify(token: string): string | undefined {
    const dot = token.lastIndexOf('.');
    if (dot <= 0 || token.length > 200) return undefined;
    const id = token.slice(0, dot);
    const expected = Buffer.from(this.mac(id));
    const given = Buffer.from(token.slice(dot + 1));
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
  }
}

/**
 * An applicant's link to continue on another device (requirements §22): the page at the server's
 * address (`/?page={pageId}`: every page answers there, whatever its host names), its secret in
 * the fragment after {@link RESUME_HASH}.
 * @param links - the resume links' signer (scope `resume`).
 */
export function resumeLinkUrl(links: SignedLinks, publicUrl: string, id: string, pageId: string): string {
  return new URL(`/?page=${encodeURIComponent(pageId)}${RESUME_HASH}${links.token(id)}`, publicUrl).toString();
}
