import { v7 as uuidv7 } from 'uuid';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  ACCOUNT_EMAILS,
  DECISION_EMAIL_DELAY_MS,
  DEFAULT_NOTIFICATION_MODE,
  type EmailKind,
  type EmailLogEntry,
  type EmailState,
  type NotificationMode,
  type PageEmails,
} from '../../shared/emails';
import { systemClock, type Clock } from '../clock';
import type { EmailContent } from '../email/content';
import { mailboxKey } from '../../shared/rules';
import { applicationsForPayload, type ApplicationForPayload } from './outbox';
import type { Database, HeldApplication } from './schema';
import { heldApplications } from './held-applications';
import { perStatement } from './statements';

/**
 * The e-mail the product sends (migration 019; docs/email.md, docs/decisions/026): messages made
 * from the outbox's events in the dispatch's transaction (so an event is never e-mailed twice, nor
 * lost), claimed for an attempt by a lease, and kept as a log the inbox shows.
 */

type MessageRow = Database['email_messages'];

/** How long a claimed message is held for the process sending it, in ms: past it (the process died), another takes it again. */
export const EMAIL_LEASE_MS = 120_000;

/** An outbox event as the dispatch hands it over: its row (migration 018). */
export type DispatchedEvent = Database['outbox_events'];

/** What the dispatch needs of a page to plan its messages: its `emails` settings, or undefined for a page this server does not know. */
export type PageEmailsOf = (pageId: string) => PageEmails | undefined;

/** A message being made and sent: its row's columns that say what it is. */
export interface EmailWork {
  id: string;
  kind: EmailKind;
  pageId: string | null;
  applicationId: string | null;
  userId: string | null;
  data: Record<string, unknown>;
  attempts: number;
  /** Its content, when an earlier attempt made it (a retry sends what the first made). */
  made?: MadeEmail;
}

/** A message made: its recipient, what it says (made into HTML and text when sent or shown) and extra headers (a notification's `List-Unsubscribe`). */
export interface MadeEmail {
  to: string;
  content: EmailContent;
  headers: Record<string, string>;
}

/**
 * What making messages reads of the store: through the dispatch's transaction where a message is
 * made as it is planned, through the store where it is made when claimed. Each reads its ids at
 * once (a statement per thousand), whatever the batch.
 */
export interface EmailReads {
  /** The applications of `ids`, by id (an erased one is absent). */
  applications(ids: readonly string[]): Promise<Map<string, ApplicationForPayload>>;
  /** The members' addresses, by id (a removed member is absent). */
  userEmails(ids: readonly string[]): Promise<Map<string, string>>;
  /** How many confirmations were sent, kept or are waiting to go to each of `mailboxes` (`mailboxKey`) since `since` (ISO-8601), by mailbox (none: absent). */
  confirmationCounts(mailboxes: readonly string[], since: string): Promise<Map<string, number>>;
  /** The minors' applications held for a guardian's consent of `ids`, by id (one answered or erased is absent). */
  heldApplications(ids: readonly string[]): Promise<Map<string, HeldApplication>>;
}

/**
 * Makes messages (the e-mail sender, email/sender.ts): for each work, its message, or why there is
 * none to send (kept as a cancellation's reason). `sends`: whether messages go through SMTP; without
 * it a message made is final (`logged`) as it is planned.
 */
export interface EmailMaker {
  sends: boolean;
  make(reads: EmailReads, works: readonly EmailWork[]): Promise<(MadeEmail | string)[]>;
}

/**
 * The kinds made as they are planned, in the dispatch's transaction (due at once, from what that
 * transaction reads): one write per message, and none more when they are only kept. A decision's
 * message is made when it is due (the decision may be undone meanwhile), a digest and an
 * endpoint's message when claimed (planned outside a dispatch).
 */
const MADE_WHEN_PLANNED: ReadonlySet<EmailKind> = new Set(['confirmation', 'notification']);

/** The columns that keep what a message was made into. */
function madeColumns(made: MadeEmail): Pick<MessageRow, 'recipient' | 'recipient_key' | 'subject' | 'content' | 'headers'> {
  return {
    recipient: made.to,
    recipient_key: mailboxKey(made.to),
    subject: made.content.subject,
    content: JSON.stringify(made.content),
    headers: JSON.stringify(made.headers),
  };
}

/** What an attempt came to: sent (or logged without SMTP), another attempt at `nextAttemptAt` (ms), failed, or cancelled (nothing to send). */
export type EmailOutcome =
  { state: 'sent' | 'logged' } | { state: 'pending'; nextAttemptAt: number; error: string } | { state: 'failed' | 'cancelled'; error: string };

/** A message row as the sender works on it (what an earlier attempt made included). */
function toWork(row: MessageRow): EmailWork {
  return {
    id: row.id,
    kind: row.kind as EmailKind,
    pageId: row.page_id,
    applicationId: row.application_id,
    userId: row.user_id,
    data: JSON.parse(row.data) as Record<string, unknown>,
    attempts: Number(row.attempts),
    made:
      row.recipient === ''
        ? undefined
        : { to: row.recipient, content: JSON.parse(row.content) as EmailContent, headers: JSON.parse(row.headers) as Record<string, string> },
  };
}

/** What a message says, or undefined before it is made (or after an erasure). */
function contentOf(row: MessageRow): EmailContent | undefined {
  return row.content === '' ? undefined : (JSON.parse(row.content) as EmailContent);
}

function toEntry(row: MessageRow): EmailLogEntry {
  return {
    id: row.id,
    kind: row.kind as EmailKind,
    state: row.state as EmailState,
    to: row.recipient,
    subject: row.subject,
    pageId: row.page_id,
    applicationId: row.application_id,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    nextAttemptAt: row.state === 'pending' ? new Date(Number(row.next_attempt_at)).toISOString() : null,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}

/** The log's columns (not the content). */
const ENTRY_COLUMNS = [
  'id',
  'kind',
  'state',
  'recipient',
  'subject',
  'page_id',
  'application_id',
  'attempts',
  'last_error',
  'next_attempt_at',
  'created_at',
  'sent_at',
] as const satisfies readonly (keyof MessageRow)[];

/** The UTC day (`YYYY-MM-DD`) of `ms`. */
function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export class EmailRepository {
  /** SQLite: the messages this process is sending (claimed in memory, not in the row). */
  private readonly sending = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
    /** PostgreSQL: claims skip rows another process is claiming (`skip locked`). */
    private readonly postgres = false,
  ) {}

  private row(columns: Pick<MessageRow, 'dedupe_key' | 'kind' | 'page_id' | 'application_id' | 'user_id' | 'data'> & { due?: number }): MessageRow {
    const { due, ...rest } = columns;
    return {
      id: uuidv7(),
      ...rest,
      recipient: '',
      recipient_key: null,
      subject: '',
      content: '',
      headers: '{}',
      state: 'pending',
      attempts: 0,
      next_attempt_at: due ?? this.clock(),
      lease_until: null,
      last_error: null,
      created_at: new Date(this.clock()).toISOString(),
      sent_at: null,
    };
  }

  private async insert(db: Kysely<Database> | Transaction<Database>, rows: readonly MessageRow[]): Promise<number> {
    let made = 0;
    for (let index = 0; index < rows.length; index += 300) {
      const result = await db
        .insertInto('email_messages')
        .values(rows.slice(index, index + 300))
        .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
        .executeTakeFirst();
      made += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return made;
  }

  /**
   * Plans the messages `events` call for, in the dispatch's transaction (docs/email.md): a stored
   * application's confirmation (where its page sends one) and a notification to each member who
   * asked for them one by one; a decision's e-mail (where the page sends one for that status), due
   * {@link DECISION_EMAIL_DELAY_MS} after it, and any earlier decision's e-mail of the application
   * not yet sent cancelled (the decision was undone or changed). With `maker`, a confirmation and a
   * notification are made here, from what this transaction reads ({@link MADE_WHEN_PLANNED}).
   * @returns how many messages it made.
   */
  async plan(trx: Transaction<Database>, events: readonly DispatchedEvent[], pageEmails: PageEmailsOf, maker?: EmailMaker): Promise<number> {
    const submitted = events.filter((event) => event.type === 'application.submitted' && event.page_id !== null);
    const immediate = submitted.length
      ? await trx.selectFrom('notification_settings').select(['user_id', 'page_id']).where('mode', '=', 'immediate').execute()
      : [];
    const rows: MessageRow[] = [];
    for (const event of events) {
      const pageId = event.page_id;
      const applicationId = event.application_id;
      if (pageId === null || applicationId === null) continue;
      const emails = pageEmails(pageId);
      if (event.type === 'application.submitted') {
        if (emails?.confirmation.enabled)
          rows.push(
            this.row({
              dedupe_key: `confirmation:${event.event_id}`,
              kind: 'confirmation',
              page_id: pageId,
              application_id: applicationId,
              user_id: null,
              data: '{}',
            }),
          );
        for (const setting of immediate.filter((row) => row.page_id === pageId))
          rows.push(
            this.row({
              dedupe_key: `notification:${event.event_id}:${setting.user_id}`,
              kind: 'notification',
              page_id: pageId,
              application_id: applicationId,
              user_id: setting.user_id,
              data: '{}',
            }),
          );
      } else if (event.type === 'application.status_changed') {
        // An earlier decision of this batch (accepted, undone, accepted again within one dispatch) is dropped as those in the store are cancelled.
        for (let index = rows.length - 1; index >= 0; index--)
          if (rows[index]!.application_id === applicationId && (rows[index]!.kind === 'accepted' || rows[index]!.kind === 'declined')) rows.splice(index, 1);
        await trx
          .updateTable('email_messages')
          .set({ state: 'cancelled', last_error: 'The decision was changed before its e-mail was sent.' })
          .where('application_id', '=', applicationId)
          .where('kind', 'in', ['accepted', 'declined'])
          .where('state', '=', 'pending')
          .where('attempts', '=', 0)
          .execute();
        const { status } = JSON.parse(event.data) as { status?: string };
        if ((status === 'accepted' || status === 'declined') && emails?.[status].enabled)
          rows.push(
            this.row({
              dedupe_key: `decision:${event.event_id}`,
              kind: status,
              page_id: pageId,
              application_id: applicationId,
              user_id: null,
              data: JSON.stringify({ status }),
              due: Date.parse(event.occurred_at) + DECISION_EMAIL_DELAY_MS,
            }),
          );
      }
    }
    if (maker) await this.makeNow(trx, rows, maker);
    return this.insert(trx, rows);
  }

  /** Makes the rows of {@link MADE_WHEN_PLANNED} kinds among `rows` (in place): made, or cancelled with the reason; kept (`logged`) at once without SMTP. */
  private async makeNow(trx: Transaction<Database>, rows: MessageRow[], maker: EmailMaker): Promise<void> {
    const now = rows.filter((row) => MADE_WHEN_PLANNED.has(row.kind as EmailKind));
    if (now.length === 0) return;
    const results = await maker.make(this.reads(trx), now.map(toWork));
    now.forEach((row, index) => {
      const result = results[index]!;
      if (typeof result === 'string') Object.assign(row, { state: 'cancelled', attempts: 1, last_error: result });
      else Object.assign(row, madeColumns(result), maker.sends ? {} : { state: 'logged', attempts: 1, sent_at: row.created_at });
    });
  }

  /** The reads making messages needs ({@link EmailReads}), through `db`: a transaction, or the store. */
  reads(db: Kysely<Database> | Transaction<Database> = this.db): EmailReads {
    return {
      applications: (ids) => applicationsForPayload(db, ids),
      userEmails: async (ids) => {
        const map = new Map<string, string>();
        for (const slice of perStatement(ids))
          for (const row of await db.selectFrom('admin_users').select(['id', 'email']).where('id', 'in', slice).execute()) map.set(row.id, row.email);
        return map;
      },
      confirmationCounts: async (mailboxes, since) => {
        const counts = new Map<string, number>();
        for (const slice of perStatement(mailboxes)) {
          const rows = await db
            .selectFrom('email_messages')
            .select(['recipient_key', (eb) => eb.fn.countAll<number | string>().as('count')])
            .where('kind', '=', 'confirmation')
            .where('recipient_key', 'in', slice)
            .where('created_at', '>=', since)
            .where('state', 'in', ['sent', 'logged', 'pending'])
            .groupBy('recipient_key')
            .execute();
          for (const row of rows) counts.set(row.recipient_key!, Number(row.count));
        }
        return counts;
      },
      heldApplications: (ids) => heldApplications(db, ids),
    };
  }

  /**
   * Plans the e-mail that asks a minor's parent or guardian for consent (requirements §20), in the
   * transaction that holds the application; made when it is claimed, its link added as it is sent
   * (the link is never kept: email/signed-links.ts).
   */
  async planGuardianConsent(trx: Transaction<Database>, held: { id: string; pageId: string }): Promise<void> {
    await this.insert(trx, [
      this.row({
        dedupe_key: `guardian_consent:${held.id}`,
        kind: 'guardian_consent',
        page_id: held.pageId,
        application_id: held.id,
        user_id: null,
        data: '{}',
      }),
    ]);
  }

  /**
   * Plans a message made already (an invitation, a password reset: docs/inbox.md, "The team"; an
   * applicant's link to continue on another device, of page `pageId`: docs/requirements.md §22),
   * due at once, in the transaction of the change that sends it. Its link is added as it is sent
   * from `linkId` (kept in its data: the id alone opens nothing without the link's MAC).
   */
  async planMade(
    trx: Transaction<Database>,
    message: { kind: 'invitation' | 'password_reset' | 'resume_link'; dedupeKey: string; linkId: string; userId?: string; pageId?: string; made: MadeEmail },
  ): Promise<void> {
    await this.insert(trx, [
      {
        ...this.row({
          dedupe_key: message.dedupeKey,
          kind: message.kind,
          page_id: message.pageId ?? null,
          application_id: null,
          user_id: message.userId ?? null,
          data: JSON.stringify({ linkId: message.linkId }),
        }),
        ...madeColumns(message.made),
      },
    ]);
  }

  /**
   * Plans a member's security notice (their password or a second factor changed: docs/inbox.md,
   * "The team"), due at once, in the change's transaction; made as it is sent from `data`.
   * @param eventId - the audit entry it tells of (one notice each).
   */
  async securityNotice(
    trx: Kysely<Database> | Transaction<Database>,
    notice: { userId: string; eventId: string; kind: string; detail: string | null; at: string; address: string },
  ): Promise<void> {
    const { userId, eventId, ...data } = notice;
    await this.insert(trx, [
      this.row({
        dedupe_key: `security_notice:${eventId}`,
        kind: 'security_notice',
        page_id: null,
        application_id: null,
        user_id: userId,
        data: JSON.stringify(data),
      }),
    ]);
  }

  /** Plans the e-mail telling every editor that an endpoint was disabled, in the transaction that disables it. */
  async endpointDisabled(trx: Transaction<Database>, endpoint: { id: string; url: string }, reason: string): Promise<void> {
    const editors = await trx.selectFrom('admin_users').select('id').where('role', 'in', ['owner', 'editor']).execute();
    const at = this.clock();
    await this.insert(
      trx,
      editors.map((editor) =>
        this.row({
          dedupe_key: `endpoint_disabled:${endpoint.id}:${at}:${editor.id}`,
          kind: 'endpoint_disabled',
          page_id: null,
          application_id: null,
          user_id: editor.id,
          data: JSON.stringify({ endpointId: endpoint.id, url: endpoint.url, reason }),
        }),
      ),
    );
  }

  /**
   * Plans the daily digests due at `now`: once `now` is past `hour` (UTC) of its day, a digest to
   * every member with a page on `digest` (the default) for whom one was not made that day, counting
   * each such page's applications received in the 24 hours before that hour; a member with none
   * to count gets no digest. Run as often as liked: each member's digest of a day is made once.
   * @returns how many digests it made.
   */
  async planDigests(hour: number): Promise<number> {
    const now = this.clock();
    const day = utcDay(now);
    const cut = Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00.000Z`);
    if (now < cut) return 0;
    const done = await this.db
      .selectFrom('email_messages')
      .select('user_id')
      .where('kind', '=', 'digest')
      .where('dedupe_key', 'like', `digest:${day}:%`)
      .execute();
    const made = new Set(done.map((row) => row.user_id));
    const users = (await this.db.selectFrom('admin_users').select('id').execute()).filter((user) => !made.has(user.id));
    if (users.length === 0) return 0;
    const from = new Date(cut - 24 * 60 * 60 * 1000).toISOString();
    const to = new Date(cut).toISOString();
    const counts = await this.db
      .selectFrom('applications')
      .select(['page_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('received_at', '>=', from)
      .where('received_at', '<', to)
      .groupBy('page_id')
      .execute();
    if (counts.length === 0) return 0;
    const settings = await this.db.selectFrom('notification_settings').select(['user_id', 'page_id', 'mode']).execute();
    const modeOf = (userId: string, pageId: string) =>
      (settings.find((row) => row.user_id === userId && row.page_id === pageId)?.mode ?? DEFAULT_NOTIFICATION_MODE) as NotificationMode;
    const rows = users.flatMap((user) => {
      const pages = counts.filter((row) => modeOf(user.id, row.page_id) === 'digest').map((row) => ({ pageId: row.page_id, count: Number(row.count) }));
      if (pages.length === 0) return [];
      return [
        this.row({
          dedupe_key: `digest:${day}:${user.id}`,
          kind: 'digest',
          page_id: null,
          application_id: null,
          user_id: user.id,
          data: JSON.stringify({ from, to, pages }),
        }),
      ];
    });
    return this.insert(this.db, rows);
  }

  /**
   * Claims up to `limit` messages due now for this process. On PostgreSQL it holds them for
   * {@link EMAIL_LEASE_MS} (a process that dies lets another take them when the lease ends), and
   * skips the rows another process is claiming at the same moment (`skip locked`); SQLite's one
   * process holds them in memory until {@link EmailRepository.record}.
   * @returns the messages, oldest due first; none when none is due.
   */
  async claim(limit = 1): Promise<EmailWork[]> {
    const now = this.clock();
    const due = this.db
      .selectFrom('email_messages')
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('next_attempt_at');
    let rows: MessageRow[];
    if (this.postgres) {
      const ids = due.select('id').limit(limit).forUpdate().skipLocked();
      rows = await this.db
        .updateTable('email_messages')
        .set({ lease_until: now + EMAIL_LEASE_MS })
        .where('id', 'in', ids)
        .where('state', '=', 'pending')
        .returningAll()
        .execute();
    } else {
      // SQLite: one process; what it is sending is held in memory, and a claim writes nothing
      // (a write is a disk flush, which the submissions share).
      rows = (
        await due
          .selectAll()
          .where('id', 'not in', ['', ...this.sending])
          .limit(limit)
          .execute()
      ).filter((row) => !this.sending.has(row.id));
      for (const row of rows) this.sending.add(row.id);
    }
    return rows.sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at)).map(toWork);
  }

  /**
   * Makes every message waiting for another attempt (it failed before) due now: the server starts,
   * perhaps with `SMTP_URL` mended, and what waited goes at once rather than at its next attempt
   * (hours away after a few). A message not attempted yet (a decision's, within its 5 minutes)
   * keeps its time.
   * @returns how many it brought forward.
   */
  async retryWaiting(): Promise<number> {
    const now = this.clock();
    const result = await this.db
      .updateTable('email_messages')
      .set({ next_attempt_at: now })
      .where('state', '=', 'pending')
      .where('next_attempt_at', '>', now)
      .where('attempts', '>', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Records what attempts came to, and what each made (kept for the log and the retries), in one
   * transaction. A message cancelled meanwhile (its application erased) stays cancelled and keeps nothing.
   */
  async record(attempts: readonly { work: EmailWork; made: MadeEmail | undefined; outcome: EmailOutcome }[]): Promise<void> {
    if (attempts.length === 0) return;
    const now = this.clock();
    try {
      await this.write(attempts, now);
    } finally {
      for (const { work } of attempts) this.sending.delete(work.id);
    }
  }

  private async write(attempts: readonly { work: EmailWork; made: MadeEmail | undefined; outcome: EmailOutcome }[], now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const { work, made, outcome } of attempts) {
        const set: Partial<MessageRow> = {
          attempts: work.attempts + 1,
          lease_until: null,
          state: outcome.state,
          last_error: 'error' in outcome ? outcome.error : null,
        };
        if (made && !work.made) Object.assign(set, madeColumns(made));
        if (outcome.state === 'pending') set.next_attempt_at = outcome.nextAttemptAt;
        if (outcome.state === 'sent' || outcome.state === 'logged') set.sent_at = new Date(now).toISOString();
        await trx.updateTable('email_messages').set(set).where('id', '=', work.id).where('state', '=', 'pending').execute();
      }
    });
  }

  /**
   * The e-mail log, newest first.
   * @param before - the `createdAt` and id of the last message of the page before.
   * @param only - only messages of this kind, in this state.
   */
  async list(
    limit: number,
    before?: { createdAt: string; id: string },
    only: { kind?: EmailKind; state?: EmailState; readerId?: string } = {},
  ): Promise<EmailLogEntry[]> {
    let query = this.db.selectFrom('email_messages').select(ENTRY_COLUMNS);
    // A reader who is no owner: the messages about accounts (ACCOUNT_EMAILS) are listed only when they went to them.
    if (only.readerId !== undefined) {
      const readerId = only.readerId;
      query = query.where((eb) => eb.or([eb('kind', 'not in', ACCOUNT_EMAILS), eb('user_id', '=', readerId)]));
    }
    if (only.kind) query = query.where('kind', '=', only.kind);
    if (only.state) query = query.where('state', '=', only.state);
    if (before)
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', before.createdAt), eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)])]),
      );
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => toEntry(row as MessageRow));
  }

  /** One message, the member it went to (a team message's), and what it says (undefined before it is made, or after an erasure), or undefined when there is none. */
  async get(id: string): Promise<{ entry: EmailLogEntry; userId: string | null; content: EmailContent | undefined } | undefined> {
    const row = await this.db.selectFrom('email_messages').selectAll().where('id', '=', id).executeTakeFirst();
    return row && { entry: toEntry(row), userId: row.user_id, content: contentOf(row) };
  }

  /** Every message about the applications of `ids`, oldest first, each with what it says (undefined before it is made, or after an erasure). */
  async ofApplications(ids: readonly string[]): Promise<{ entry: EmailLogEntry; content: EmailContent | undefined }[]> {
    const rows: MessageRow[] = [];
    for (const slice of perStatement(ids))
      rows.push(...(await this.db.selectFrom('email_messages').selectAll().where('application_id', 'in', slice).execute()));
    return rows
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
      .map((row) => ({ entry: toEntry(row), content: contentOf(row) }));
  }

  /** A member's notification mode for each of `pageIds` (the default where they said nothing). */
  async settings(userId: string, pageIds: readonly string[]): Promise<Map<string, NotificationMode>> {
    const rows = await this.db.selectFrom('notification_settings').select(['page_id', 'mode']).where('user_id', '=', userId).execute();
    const set = new Map(rows.map((row) => [row.page_id, row.mode as NotificationMode]));
    return new Map(pageIds.map((pageId) => [pageId, set.get(pageId) ?? DEFAULT_NOTIFICATION_MODE]));
  }

  /** Sets a member's mode for a page (`pageId`), or for every page in `pageIds` (an unsubscription from the digest). */
  async setSetting(userId: string, pageIds: readonly string[], mode: NotificationMode): Promise<void> {
    if (pageIds.length === 0) return;
    await this.db
      .insertInto('notification_settings')
      .values(pageIds.map((pageId) => ({ user_id: userId, page_id: pageId, mode })))
      .onConflict((conflict) => conflict.columns(['user_id', 'page_id']).doUpdateSet({ mode: (eb) => eb.ref('excluded.mode') }))
      .execute();
  }
}

/**
 * What the e-mail log still holds of an application being erased, in its erasure's transaction
 * (docs/email.md, "Erasure"): every message about it keeps its kind, state and times only; its
 * recipient, subject and content go, and a message not yet sent is cancelled.
 */
export async function eraseFromEmailLog(trx: Transaction<Database>, applicationId: string): Promise<void> {
  await scrubEmailLog(trx, 'application_id', applicationId, 'The application was erased');
}

/**
 * Scrubs the e-mail log's messages whose `column` is `value`, as {@link eraseFromEmailLog} does for
 * an application: a resume link's (`dedupe_key`) as its draft is erased (docs/requirements.md §22).
 * @param why - what the log says of a message not sent, or one that had failed (`The draft was erased`).
 */
export async function scrubEmailLog(trx: Transaction<Database>, column: 'application_id' | 'dedupe_key', value: string, why: string): Promise<void> {
  await trx
    .updateTable('email_messages')
    .set({
      recipient: '',
      recipient_key: null,
      subject: '',
      content: '',
      headers: '{}',
      data: '{}',
      state: sql<string>`case when state = 'pending' then 'cancelled' else state end`,
      // An SMTP server's error names the recipient ("550 <ada@…>: no such mailbox"): not kept.
      last_error: sql<
        string | null
      >`case when state = 'pending' then ${`${why} before this message was sent.`} when last_error is null then null else ${`${why}.`} end`,
    })
    .where(column, '=', value)
    .execute();
}
