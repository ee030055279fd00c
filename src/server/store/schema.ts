/**
 * The store's tables as Kysely sees them (the migrations in migrations.ts create them), and what
 * writing an application row answers. Types only: every other module of the store reads its table
 * shapes here, so none of them imports another for a type.
 */
import type { ConsentRecord } from '../../shared/consents';
import type { Generated } from 'kysely';

/** The `applications` table (requirements §13: what every stored application keeps). */
export interface ApplicationsTable {
  id: string;
  page_id: string;
  idempotency_key: string | null;
  /** The applicant's e-mail, lower-cased, for look-ups. */
  email: string;
  /** The payload as received, JSON text. */
  payload: string;
  /** ISO-8601 UTC time the server received it. */
  received_at: string;
  user_agent: string | null;
  /** Review status, `new` until a user decides. */
  status: string;
  /** The reviewers' note. */
  note: string;
  // The columns below are derived from the payload (indexed-columns.ts) for the inbox's filters.
  first_name: string;
  last_name: string;
  /** ISO 3166-1 alpha-2, or '' when the page did not ask. */
  country_code: string;
  /** Lower-cased name, e-mail and handles, one space apart, for `q` (the inbox's search). */
  search_text: string;
  /** `,instagram,tiktok,`: the platforms named, comma-delimited for a `like '%,name,%'` filter. */
  platform_names: string;
  /**
   * The phone in E.164 (`+447400123456`), '' when the page did not ask or it was left
   * out, and for rows stored before the column. The payload keeps the calling code and
   * subscriber digits; this is the form to dial.
   */
  phone_e164: string;
  /**
   * Followers summed over the platforms, website's traffic aside (`audienceOf`). A
   * number: PostgreSQL's `bigint` reads back as text, so read it through `Number`.
   */
  total_followers: number | string;
  /** The platform with the most followers, '' when none has any. */
  top_platform: string;
  /** That platform's followers (0 when none). */
  top_followers: number | string;
  /** `first last` lower-cased: the name sort's key. */
  sort_name: string;
  /**
   * The version of a stored page (migration 012) the application answered; null for
   * the default page of `config/wizard.json` and for rows stored before the column.
   */
  page_version: number | null;
  /** The consent records made as it was stored (requirements §21; migration 021): JSON, or null on a page without consents. */
  consents: string | null;
  /** The address (lower case) of the parent or guardian who consented to a minor's application (migration 022); null for every other. Set by the consent, never by a submission. */
  guardian_email?: string | null;
}

/** One survey answer of an application, for the inbox's answer filters. */
export interface AnswerRow {
  application_id: string;
  page_id: string;
  /** The key under the payload's `fields` (`howFamiliar`, `campaign.value`). */
  key: string;
  /** The answer (200 characters or fewer), or one option of a multi-select answer. */
  value: string;
}

/** The database schema as Kysely sees it (migrations.ts creates it). */
export interface Database {
  applications: ApplicationsTable;
  application_handles: { application_id: string; page_id: string; platform: string; handle: string };
  /**
   * `status`: the application's, kept by its decisions (migration 011), `new` as it is stored.
   * `tallied`: 1 when the row is counted in its page's `answer` tallies (its question offered as
   * choices), 0 when not (tallies.ts; migration 016). `profile_id`: on the whole answer of a
   * question not counted per value, the number of what its application adds to a summary (its
   * answer profile in `answer_profiles`, answer-index.ts; migration 029). `folded`: on a row not
   * counted per value, its value lower-cased as the store's `contains` folds it, and
   * `country_code`, its application's (migration 029).
   */
  application_answers: AnswerRow & {
    status: Generated<string>;
    tallied: Generated<number>;
    profile_id: Generated<number | null>;
    folded: Generated<string | null>;
    country_code: Generated<string | null>;
  };
  /** Each distinct answer profile once (answer-index.ts; migration 029), by number, with how many answer rows name it (`n`). */
  answer_profiles: { id: Generated<number>; profile: string; n: number };
  /** A user's named list views: the list's query string (filters and sort), one per name. */
  saved_views: { id: string; user_id: string; name: string; query: string; created_at: string };
  /** Migration 023 added the second factors: `totp_*`, `recovery_codes` (JSON array of SHA-256 hex). */
  admin_users: {
    id: string;
    email: string;
    password_hash: string;
    role: string;
    created_at: string;
    totp_secret: string | null;
    totp_pending: string | null;
    totp_last_step: number | string | null;
    recovery_codes: string | null;
  };
  /** Migration 023 added what the session's owner sees, its `stage` and a passkey sign-in's `challenge`. */
  admin_sessions: {
    id: string;
    user_id: string;
    created_at: string;
    expires_at: string;
    user_agent: string | null;
    address: string | null;
    last_used_at: string | null;
    stage: string;
    challenge: string | null;
  };
  /** An invitation to the team (migration 023): `state` `pending`, `accepted` or `revoked`; the link signs `link_id`. */
  team_invitations: { id: string; email: string; role: string; link_id: string; invited_by: string; created_at: string; expires_at: string; state: string };
  /** A password reset asked for (migration 023): the link signs `id`; single use (`used_at`). */
  password_resets: { id: string; user_id: string; created_at: string; expires_at: string; used_at: string | null };
  /** A member's WebAuthn credential (migration 023): `id` and `public_key` base64url, `transports` JSON. */
  passkeys: {
    id: string;
    user_id: string;
    name: string;
    public_key: string;
    counter: number | string;
    transports: string;
    created_at: string;
    last_used_at: string | null;
  };
  /** The team's settings (migration 023): `require_second_factor` = `true` or `false`. */
  team_settings: { name: string; value: string };
  /** The team's audit log (migration 023). */
  team_events: { id: string; at: string; kind: string; actor: string; subject: string | null; detail: string | null; address: string };
  /** Sign-in attempts in progress or failed, one row per key (`account:…`, `address:…`). */
  sign_in_failures: { key: string; at: string; attempt_id: string | null };
  /** Secrets the server generated for itself (the anti-forgery key when `SECRET` is not set). */
  server_secrets: { name: string; value: string };
  /**
   * One row (`id` 1) the readiness check writes while writes of applications fail (migration 014,
   * write-readiness.ts): `written_at` ISO-8601 UTC, `filler` random hex about a submission's size.
   */
  store_probe: { id: number; written_at: string; filler: string };
  /** A consent withdrawn (requirements §21; migration 021): append-only. */
  consent_withdrawals: { id: string; application_id: string; purpose: string; at: string };
  /** A minor's application held until a parent or guardian answers (migration 021). */
  guardian_requests: {
    id: string;
    page_id: string;
    page_version: number | null;
    idempotency_key: string;
    email: string;
    guardian_email: string;
    guardian_mailbox: string;
    payload: string;
    user_agent: string | null;
    received_at: string;
    expires_at: string;
    consents: string | null;
    released_at: string | null;
  };
  /** A page a server reads from its configuration file, as that server last recorded it (migration 025). */
  file_pages: { page_id: string; config: string; recorded_at: string };
  /** A draft an applicant asked to continue on another device (migration 024): its answers sealed, erased after 7 days. */
  resume_drafts: {
    id: string;
    page_id: string;
    email: string;
    sealed: string;
    created_at: string;
    expires_at: string;
  };
  /** Every link to finish on another device asked for (migration 026): its proof spent, its mailbox counted, past its draft's erasure; erased after 24 hours. */
  resume_link_sends: { page_id: string; proof_key: string; mailbox_hash: string; created_at: string; kept: number };
  audit_log: {
    id: string;
    application_id: string;
    at: string;
    actor: string;
    action: string;
    from_value: string | null;
    to_value: string | null;
  };
  funnel_counts: { page_id: string; day: string; event: string; step: number; count: number };
  /** The team's notes on an application, a thread oldest first. Times ISO-8601 UTC; `author` the user's e-mail. */
  application_notes: { id: string; application_id: string; author: string; created_at: string; updated_at: string; text: string };
  /** The tags the team defines; `name_key` is `name` lower-cased, unique: one tag whatever its case. */
  tags: { id: string; name: string; name_key: string; created_at: string };
  /** Which tags an application has. */
  application_tags: { application_id: string; tag_id: string };
  /**
   * Campaign pages (migration 012): `status` draft | published | closed; `draft` the
   * draft configuration as JSON text; `revision` +1 on every saved change; times ISO-8601 UTC;
   * `published_version` the version served.
   */
  pages: {
    id: string;
    status: string;
    draft: string;
    revision: number;
    updated_by: string;
    updated_at: string;
    published_version: number | null;
    opens_at: string | null;
    closes_at: string | null;
    max_applications: number | null;
    created_at: string;
    created_by: string;
    /**
     * Applications the page has taken (migration 013): kept exact while it has a cap (a submit
     * takes a slot, `taken < max_applications`, in its own transaction); counted again from the
     * tallies when a cap is set on a page that had none.
     */
    taken: number;
  };
  /** A page's published configurations (JSON text, defaults applied), immutable. */
  page_versions: { page_id: string; version: number; config: string; published_at: string; published_by: string };
  /** The host names pages are served at (lower case, no port), each of one page. */
  page_hosts: { host: string; page_id: string };
  /** Counts per page and status (migration 009; tallies.ts says what each kind counts). */
  application_tallies: { page_id: string; status: string; kind: string; key: string; value: string; n: number | string };
  /**
   * The applications stored whose answer rows, answer tallies and (SQLite) search-index entry are
   * still to be written by the follow-up (migration 015, answer-index.ts).
   */
  application_index_queue: { application_id: string };
  /** Events not yet handed to their endpoints (migration 018, outbox.ts): ids and statuses only in `data` (JSON). */
  outbox_events: { event_id: string; type: string; occurred_at: string; page_id: string | null; application_id: string | null; data: string };
  /** The team's webhook endpoints (migration 018): `events` a JSON array; times ISO-8601 UTC but `previous_secret_until` (ms). */
  webhook_endpoints: {
    id: string;
    url: string;
    kind: string;
    events: string;
    payload: string;
    description: string;
    secret: string;
    /** Migration 018's one previous secret and its end (ms): read for a rotation made before migration 020. */
    previous_secret: string | null;
    previous_secret_until: number | string | null;
    /** Migration 020: the secrets rotated out that still sign, JSON `[{secret, until}]` (`until` in ms). */
    previous_secrets: string;
    state: string;
    disabled_reason: string | null;
    created_at: string;
    created_by: string;
    updated_at: string;
  };
  /** One event to one endpoint (migration 018): `next_attempt_at` in ms since the epoch. */
  webhook_deliveries: {
    id: string;
    endpoint_id: string;
    event_id: string;
    type: string;
    occurred_at: string;
    page_id: string | null;
    application_id: string | null;
    data: string;
    state: string;
    attempts: number;
    next_attempt_at: number | string;
    last_status: number | null;
    last_error: string | null;
    last_latency_ms: number | null;
    delivered_at: string | null;
    created_at: string;
  };
  /** One message the product sends (migration 019): `next_attempt_at` and `lease_until` in ms since the epoch; `data` and `headers` JSON. */
  email_messages: {
    id: string;
    dedupe_key: string;
    kind: string;
    page_id: string | null;
    application_id: string | null;
    user_id: string | null;
    data: string;
    recipient: string;
    /** Migration 020: the recipient's mailbox (`mailboxKey`, src/shared/rules.ts), null before the message is made. */
    recipient_key: string | null;
    subject: string;
    content: string;
    headers: string;
    state: string;
    attempts: number;
    next_attempt_at: number | string;
    lease_until: number | string | null;
    last_error: string | null;
    created_at: string;
    sent_at: string | null;
  };
  /** A team member's notification mode per page (migration 019). */
  notification_settings: { user_id: string; page_id: string; mode: string };
  /**
   * The questions each page offers as choices (migration 016): the answer index's follow-up counts
   * their answers per value in the tallies, and no other answer (tallies.ts).
   */
  tallied_questions: { page_id: string; key: string };
}

/** A row of `application_handles`: one platform handle of an application (duplicates, platform filter). */
export type HandleRow = Database['application_handles'];

/** The rows stored beside an application, in the same transaction: its handles and its answers. */
export interface ChildRows {
  handles: HandleRow[];
  answers: AnswerRow[];
  /**
   * Set for an application to a page with a cap: stored only if it takes a slot of
   * the page (`pages.taken < max_applications`, raised by one) in the same transaction.
   */
  slot?: true;
}

/** What storing an application answers: the stored row's id and time, and whether it was created now. */
export interface SavedApplication {
  id: string;
  /** ISO-8601 UTC. */
  receivedAt: string;
  /** False when the idempotency key was stored before: `id` is then the first row's. */
  created: boolean;
  /**
   * Set when the idempotency key was stored before with another body (byte for byte): nothing
   * was stored, and the route answers 422 (IETF `Idempotency-Key` draft, §2.7).
   */
  conflict?: true;
  /**
   * Set when the application needed a slot of its page ({@link ChildRows.slot}) and none was left:
   * nothing was stored (the route answers 410). `id` and `receivedAt` are then empty.
   */
  full?: true;
  /** For an application stored with a slot: the page's `taken` and cap after it (the registry closes the page at its cap). */
  taken?: { taken: number; max: number | null };
}

/** A minor's application held until a parent or guardian answers (docs/privacy.md, "A minor's parent or guardian"). */
export interface HeldApplication {
  id: string;
  pageId: string;
  pageVersion: number | null;
  idempotencyKey: string;
  /** The applicant's address, lower case. */
  email: string;
  /** The guardian's address, lower case. */
  guardianEmail: string;
  /** The application as checked. */
  payload: unknown;
  /** Its JSON text. */
  payloadJson: string;
  userAgent: string | null;
  /** ISO-8601 UTC. */
  receivedAt: string;
  /** ISO-8601 UTC: 7 days after `receivedAt` (`GUARDIAN_WAIT_MS`); the sweep erases it then. */
  expiresAt: string;
  /** Its consent records as they were given (requirements §21), kept for the application consent stores. */
  consents: ConsentRecord[] | undefined;
}
