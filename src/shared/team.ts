/**
 * The team in the inbox (docs/inbox.md, "The team"; docs/decisions/030): roles, invitations,
 * password resets, second factors, sessions and the team's audit log — the inbox API's request
 * schemas and answer shapes, shared by the server and the inbox so both read one contract.
 */
import { ADMIN_ROLES, MAX_PASSWORD_LENGTH } from './admin';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from './rules';
import { z } from './zod';

/** How long an invitation's link works, in ms: 72 hours (docs/inbox.md, "The team"). */
export const INVITATION_LIFETIME_MS = 72 * 3_600_000;
/** How long a password reset's link works, in ms: 30 minutes (OWASP's forgot-password sheet). */
export const PASSWORD_RESET_LIFETIME_MS = 30 * 60_000;
/** Reset e-mails one account is sent in an hour, at most: more requests are answered alike and send nothing. */
export const MAX_PASSWORD_RESETS_PER_HOUR = 3;
/** Invitations (sent, resent, or sent again after a revocation) one address is sent in an hour, at most: an owner's account cannot flood a mailbox. */
export const MAX_INVITATIONS_PER_ADDRESS_PER_HOUR = 3;
/** Single-use recovery codes made when a member enrols an authenticator app: ten. */
export const RECOVERY_CODE_COUNT = 10;
/** A half-signed-in session (password right, second factor to come) ends after this long, in ms: 5 minutes. */
export const SECOND_FACTOR_WINDOW_MS = 5 * 60_000;
/** Most passkeys one member may register. */
export const MAX_PASSKEYS = 10;
/** Longest name of a passkey, in characters. */
export const MAX_PASSKEY_NAME_LENGTH = 60;

/** What each role may do, as the Team view says it (owner: everything; editor: pages, decisions, exports; viewer: read only). */
export const ROLE_DESCRIPTIONS = {
  owner: 'Everything, including the team and integrations',
  editor: 'Pages, decisions and exports',
  viewer: 'Reads only',
} as const satisfies Record<(typeof ADMIN_ROLES)[number], string>;

const email = z.string().check(z.maxLength(MAX_EMAIL_LENGTH), z.regex(EMAIL_PATTERN, 'Enter an e-mail address like name@example.com.'));
/** A new password as the server first reads it: its rule (length, common passwords) is `passwordProblem`'s. */
const password = z.string().check(z.maxLength(MAX_PASSWORD_LENGTH));

/** `POST /api/admin/team/invitations` body. */
export const InvitationBodySchema = z.strictObject({ email, role: z.enum(ADMIN_ROLES) });
/** `PATCH /api/admin/team/members/{id}` body. */
export const RoleBodySchema = z.strictObject({ role: z.enum(ADMIN_ROLES) });
/** `PUT /api/admin/team/settings` body and answer. */
export const TeamSettingsSchema = z.strictObject({ requireSecondFactor: z.boolean() });
export type TeamSettings = z.output<typeof TeamSettingsSchema>;

/** `POST /api/admin/invitations/accept` body: the link's token and the password chosen. */
export const AcceptInvitationSchema = z.strictObject({ token: z.string().check(z.maxLength(200)), password });
/** `POST /api/admin/password-reset` body. */
export const PasswordResetRequestSchema = z.strictObject({ email: z.string().check(z.maxLength(MAX_EMAIL_LENGTH)) });
/** `POST /api/admin/password-reset/complete` body. */
export const PasswordResetSchema = z.strictObject({ token: z.string().check(z.maxLength(200)), password });
/** `POST /api/admin/session/second-factor` body: six digits from the app, or a recovery code. */
export const SecondFactorCodeSchema = z.strictObject({ code: z.string().check(z.maxLength(40)) });
/** `POST /api/admin/me/totp/confirm` body. */
export const TotpConfirmSchema = z.strictObject({ code: z.string().check(z.maxLength(12)) });
/** A change to one's own second factors (removing one, new recovery codes): the password again. */
export const PasswordConfirmSchema = z.strictObject({ password: z.string().check(z.maxLength(MAX_PASSWORD_LENGTH)) });
/** `POST /api/admin/me/password` body: the password now, and the new one (held to the rule by the server). */
export const PasswordChangeSchema = z.strictObject({ current: z.string().check(z.maxLength(MAX_PASSWORD_LENGTH)), password });

/** `POST /api/admin/me/passkeys` body: the browser's registration response, and a name to tell it by. */
export const PasskeyRegistrationSchema = z.strictObject({
  name: z.string().check(z.maxLength(MAX_PASSKEY_NAME_LENGTH)),
  response: z.record(z.string(), z.unknown()),
});
/** `POST /api/admin/session/passkey` body: the browser's authentication response. */
export const PasskeyAuthenticationSchema = z.strictObject({ response: z.record(z.string(), z.unknown()) });

/** A member of the team, as the Team view lists them. */
export const MemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ADMIN_ROLES),
  /** ISO-8601 UTC. */
  createdAt: z.string(),
  /** An authenticator app or a passkey is set up. */
  secondFactor: z.boolean(),
  /** Their sessions open now. */
  sessions: z.number(),
});
export type Member = z.output<typeof MemberSchema>;

/** An invitation not accepted yet (revoked and accepted ones are not listed). */
export const InvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ADMIN_ROLES),
  invitedBy: z.string(),
  /** ISO-8601 UTC. */
  createdAt: z.string(),
  /** ISO-8601 UTC: past it, the link no longer works (resend to renew). */
  expiresAt: z.string(),
});
export type Invitation = z.output<typeof InvitationSchema>;

/** `GET /api/admin/team` answer. */
export const TeamSchema = z.object({ members: z.array(MemberSchema), invitations: z.array(InvitationSchema), settings: TeamSettingsSchema });
export type Team = z.output<typeof TeamSchema>;

/**
 * `POST /api/admin/team/invitations` (and `…/resend`) answer: the invitation, and its link when
 * this server sends no e-mail (no `SMTP_URL`): the owner passes it on.
 */
export const InvitationSentSchema = z.object({ invitation: InvitationSchema, link: z.optional(z.string()) });
export type InvitationSent = z.output<typeof InvitationSentSchema>;

/** `POST /api/admin/invitations/offer` answer: what the invitee is asked to accept. */
export const InvitationOfferSchema = z.object({ email: z.string(), role: z.enum(ADMIN_ROLES), invitedBy: z.string(), expiresAt: z.string() });
export type InvitationOffer = z.output<typeof InvitationOfferSchema>;

/** `POST /api/admin/password-reset/offer` answer: the account a reset's link works for, and until when (ISO-8601 UTC). */
export const ResetOfferSchema = z.object({ email: z.string(), expiresAt: z.string() });
export type ResetOffer = z.output<typeof ResetOfferSchema>;

/** One session of a member: the device told from its user agent, the address, when made and last used (ISO-8601 UTC). */
export const SessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  address: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  /** The session this list was asked from. */
  current: z.boolean(),
});
export type SessionEntry = z.output<typeof SessionSchema>;

/** A passkey of the signed-in member. */
export const PasskeySchema = z.object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.nullable(z.string()) });
export type Passkey = z.output<typeof PasskeySchema>;

/** `GET /api/admin/me/security` answer: the member's second factors, and whether the team requires one. */
export const SecuritySchema = z.object({
  totp: z.boolean(),
  recoveryCodesLeft: z.number(),
  passkeys: z.array(PasskeySchema),
  required: z.boolean(),
});
export type Security = z.output<typeof SecuritySchema>;

/** `POST /api/admin/me/totp` answer: the secret to enrol (as text and as an `otpauth:` URI drawn as a QR code, SVG). */
export const TotpSetupSchema = z.object({ secret: z.string(), uri: z.string(), qrSvg: z.string() });
export type TotpSetup = z.output<typeof TotpSetupSchema>;

/** `POST /api/admin/me/totp/confirm` and `…/recovery-codes` answer: the recovery codes, shown this once. */
export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** `POST /api/admin/session` answer when a second factor is to come (a session without one answers 204). */
export const SecondFactorNeededSchema = z.object({ secondFactor: z.object({ totp: z.boolean(), passkey: z.boolean() }) });
export type SecondFactorNeeded = z.output<typeof SecondFactorNeededSchema>;

/** What the team's audit log records. */
export const TEAM_EVENT_KINDS = [
  'invitation-sent',
  'invitation-resent',
  'invitation-revoked',
  'invitation-accepted',
  'member-added',
  'role-changed',
  'member-removed',
  'password-reset-requested',
  'password-reset',
  'password-changed',
  'second-factor-added',
  'second-factor-removed',
  'recovery-codes-made',
  'recovery-code-used',
  'second-factor-required',
  'second-factor-not-required',
  'session-ended',
  'sessions-ended',
] as const;
export type TeamEventKind = (typeof TEAM_EVENT_KINDS)[number];

/** Each audit entry's kind in words: as an owner reads it in the log, and a member in a security notice. */
export const TEAM_EVENT_LABELS: Record<TeamEventKind, string> = {
  'invitation-sent': 'Invitation sent',
  'invitation-resent': 'Invitation resent',
  'invitation-revoked': 'Invitation revoked',
  'invitation-accepted': 'Invitation accepted',
  'member-added': 'Member added (command line)',
  'role-changed': 'Role changed',
  'member-removed': 'Member removed',
  'password-reset-requested': 'Password reset asked for',
  'password-reset': 'Password reset',
  'password-changed': 'Password changed',
  'second-factor-added': 'Second factor added',
  'second-factor-removed': 'Second factor removed',
  'recovery-codes-made': 'New recovery codes',
  'recovery-code-used': 'Recovery code used',
  'second-factor-required': 'Second factor required',
  'second-factor-not-required': 'Second factor no longer required',
  'session-ended': 'Session ended',
  'sessions-ended': 'Sessions ended by an owner',
};

/**
 * The changes to how a member signs in that the member is told of by e-mail, wherever they were
 * made (the inbox, a reset link, the command line), so that a change they did not make does not
 * go unseen (OWASP ASVS 4.0.3 V2.2.3: notify after updates to authentication details).
 */
export const SECURITY_NOTICE_EVENTS = [
  'password-reset',
  'password-changed',
  'second-factor-added',
  'second-factor-removed',
  'recovery-codes-made',
  'recovery-code-used',
] as const satisfies readonly TeamEventKind[];
export type SecurityNoticeEvent = (typeof SECURITY_NOTICE_EVENTS)[number];

/** One entry of the team's audit log: who did what to whom, when and from where. */
export const TeamEventSchema = z.object({
  id: z.string(),
  /** ISO-8601 UTC. */
  at: z.string(),
  kind: z.enum(TEAM_EVENT_KINDS),
  /** Who did it (their address), or `command line`. */
  actor: z.string(),
  /** Whom it concerns (an address), when someone. */
  subject: z.nullable(z.string()),
  /** What changed, in words (`editor → viewer`, `passkey "Laptop"`). */
  detail: z.nullable(z.string()),
  /** The client's address it came from (`command line` for the admin CLI). */
  address: z.string(),
});
export type TeamEvent = z.output<typeof TeamEventSchema>;

/** `GET /api/admin/team/audit` query: by person (an address, actor or subject), kind, and before an entry's id (the next page). */
export const TeamAuditQuerySchema = z.strictObject({
  person: z.optional(z.string().check(z.maxLength(MAX_EMAIL_LENGTH))),
  kind: z.optional(z.enum(TEAM_EVENT_KINDS)),
  before: z.optional(z.string().check(z.maxLength(100))),
});
/** Entries per page of the team's audit log. */
export const TEAM_AUDIT_PAGE_SIZE = 100;
/** `GET /api/admin/team/audit` answer: newest first; `next` the id to ask `before` for the page after. */
export const TeamAuditSchema = z.object({ events: z.array(TeamEventSchema), next: z.nullable(z.string()) });
export type TeamAudit = z.output<typeof TeamAuditSchema>;

/** Whether a role may change applications and pages (owners and editors). */
export const canEdit = (role: string | undefined) => role === 'owner' || role === 'editor';
