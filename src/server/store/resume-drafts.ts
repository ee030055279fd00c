import type { Kysely } from 'kysely';
import { MAX_RESUME_LINKS_PER_MAILBOX } from '../../shared/resume';
import { mailboxKey } from '../../shared/rules';
import type { Clock } from '../clock';
import { scrubEmailLog, type EmailRepository, type MadeEmail } from './emails';
import type { Database } from './schema';
import { lockScope } from './locks';

/** A draft kept for another device, as stored: its answers still sealed (src/server/resume-seal.ts). */
export interface KeptDraft {
  id: string;
  pageId: string;
  /** The address the link went to, lower case. */
  email: string;
  /** The sealed answers: base64url of nonce, tag and ciphertext. */
  sealed: string;
  /** ISO-8601 UTC. */
  createdAt: string;
  /** ISO-8601 UTC: the link stops working and the draft is erased. */
  expiresAt: string;
  /** The Idempotency-Key (lower case) whose solved challenge paid for the link; absent where the server asks no proof. */
  proofKey?: string;
}

/** A `resume_drafts` row as a {@link KeptDraft}. */
const toKept = (row: Database['resume_drafts']): KeptDraft => ({
  id: row.id,
  pageId: row.page_id,
  email: row.email,
  sealed: row.sealed,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  ...(row.proof_key === null ? {} : { proofKey: row.proof_key }),
});

/** The e-mail log's key of a draft's message (its `dedupe_key`), by which it is scrubbed with the draft. */
const messageKey = (id: string) => `resume_link:${id}`;

/**
 * The drafts applicants asked to continue on another device (docs/requirements.md §22;
 * docs/decisions/034; `resume_drafts`, migration 024): kept with the e-mail that carries the link,
 * read through the link, erased after 7 days, by a data-subject erasure, or never kept at all
 * without the applicant's request. The answers arrive sealed: this repository never sees them.
 */
export class ResumeDraftRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly emails: EmailRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Keeps `draft` and plans its e-mail (`made`, the link's placeholder in it) in one transaction,
   * unless its mailbox (`mailboxKey`: `ada+1@…` is `ada@…`) was sent
   * {@link MAX_RESUME_LINKS_PER_MAILBOX} links in the last 24 hours, or its proof's key already paid
   * for a link on its page (one solution, one link: docs/decisions/034).
   * @returns `kept`, `too-many` or `spent` (nothing kept, nothing sent).
   * @throws the store's error (nothing kept).
   */
  async keep(draft: KeptDraft, made: MadeEmail): Promise<'kept' | 'too-many' | 'spent'> {
    const mailbox = mailboxKey(draft.email);
    const since = new Date(this.clock() - 24 * 60 * 60 * 1000).toISOString();
    return this.db.transaction().execute(async (trx) => {
      // Two requests for one mailbox at once must not both count 2 and both insert (PostgreSQL).
      await lockScope(trx, `resume-links:${mailbox}`);
      const { count } = await trx
        .selectFrom('resume_drafts')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('mailbox', '=', mailbox)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      if (Number(count) >= MAX_RESUME_LINKS_PER_MAILBOX) return 'too-many';
      const inserted = await trx
        .insertInto('resume_drafts')
        .values({
          id: draft.id,
          page_id: draft.pageId,
          email: draft.email,
          mailbox,
          sealed: draft.sealed,
          created_at: draft.createdAt,
          expires_at: draft.expiresAt,
          proof_key: draft.proofKey ?? null,
        })
        // Two requests with one solution at once: the unique index lets one in.
        .onConflict((conflict) => conflict.columns(['page_id', 'proof_key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return 'spent';
      await this.emails.planMade(trx, { kind: 'resume_link', dedupeKey: messageKey(draft.id), linkId: draft.id, pageId: draft.pageId, made });
      return 'kept';
    });
  }

  /** The draft `id` while its 7 days last; undefined once they are over, or when it was erased or never kept. */
  async get(id: string): Promise<KeptDraft | undefined> {
    const row = await this.db
      .selectFrom('resume_drafts')
      .selectAll()
      .where('id', '=', id)
      .where('expires_at', '>', new Date(this.clock()).toISOString())
      .executeTakeFirst();
    return row && toKept(row);
  }

  /** The drafts kept for `email` (any case), oldest first: a data-subject request's. */
  async byEmail(email: string): Promise<KeptDraft[]> {
    const rows = await this.db.selectFrom('resume_drafts').selectAll().where('email', '=', email.trim().toLowerCase()).orderBy('created_at').execute();
    return rows.map(toKept);
  }

  /** The ids of the drafts whose 7 days are over at `now` (ISO-8601 UTC), oldest first, at most `limit`. */
  async expired(now: string, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('resume_drafts').select('id').where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute();
    return rows.map((row) => row.id);
  }

  /**
   * Erases draft `id` and what the e-mail log kept of its message (recipient, subject, content;
   * a message not sent yet is cancelled), in one transaction.
   * @returns false when there was none.
   */
  async erase(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx.deleteFrom('resume_drafts').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return false;
      await scrubEmailLog(trx, 'dedupe_key', messageKey(id), 'The draft was erased');
      return true;
    });
  }
}
