import { createHash } from 'node:crypto';
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
}

/** A `resume_drafts` row as a {@link KeptDraft}. */
const toKept = (row: Database['resume_drafts']): KeptDraft => ({
  id: row.id,
  pageId: row.page_id,
  email: row.email,
  sealed: row.sealed,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** A mailbox as `resume_link_sends` counts it: the SHA-256 of its key (`ada+1@…` is `ada@…`), never the address. */
const mailboxHash = (email: string) => createHash('sha256').update(mailboxKey(email)).digest('hex');

/** How long a link's request is remembered, in ms: the mailbox cap's window, past a challenge's 2 hours. */
const SEND_MEMORY_MS = 24 * 60 * 60 * 1000;

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
   * unless `proofKey` already paid for a link to its page (one solution, one link, even once that
   * link's draft is erased: docs/decisions/034), or its mailbox (`mailboxKey`: `ada+1@…` is `ada@…`)
   * was sent {@link MAX_RESUME_LINKS_PER_MAILBOX} links in the last 24 hours (the proof is spent then
   * too). The request is remembered 24 hours (`resume_link_sends`), apart from the draft.
   * @param proofKey - the Idempotency-Key (lower case) whose solved challenge paid for the link;
   *   undefined where the server asks no proof.
   * @returns `kept`, `spent` or `too-many` (nothing kept, nothing sent).
   * @throws the store's error (nothing kept).
   */
  async keep(draft: KeptDraft, made: MadeEmail, proofKey?: string): Promise<'kept' | 'too-many' | 'spent'> {
    const hash = mailboxHash(draft.email);
    // The key whose solution pays for this link; where no proof is asked, the draft's own id (a row to count, never a conflict).
    const proof = proofKey ?? draft.id;
    const since = new Date(this.clock() - SEND_MEMORY_MS).toISOString();
    return this.db.transaction().execute(async (trx) => {
      // Two requests for one mailbox at once must not both count 2 and both insert (PostgreSQL).
      await lockScope(trx, `resume-links:${hash}`);
      // The proof first: a spent one is refused whatever the mailbox; two at once, the key decides.
      const spent = await trx
        .insertInto('resume_link_sends')
        .values({ page_id: draft.pageId, proof_key: proof, mailbox_hash: hash, created_at: draft.createdAt, kept: 0 })
        .onConflict((conflict) => conflict.columns(['page_id', 'proof_key']).doNothing())
        .executeTakeFirst();
      if (Number(spent.numInsertedOrUpdatedRows ?? 0) === 0) return 'spent';
      const { count } = await trx
        .selectFrom('resume_link_sends')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('mailbox_hash', '=', hash)
        .where('kept', '=', 1)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      if (Number(count) >= MAX_RESUME_LINKS_PER_MAILBOX) return 'too-many';
      await trx
        .insertInto('resume_drafts')
        .values({
          id: draft.id,
          page_id: draft.pageId,
          email: draft.email,
          sealed: draft.sealed,
          created_at: draft.createdAt,
          expires_at: draft.expiresAt,
        })
        .execute();
      await trx.updateTable('resume_link_sends').set({ kept: 1 }).where('page_id', '=', draft.pageId).where('proof_key', '=', proof).execute();
      await this.emails.planMade(trx, { kind: 'resume_link', dedupeKey: messageKey(draft.id), linkId: draft.id, pageId: draft.pageId, made });
      return 'kept';
    });
  }

  /** Forgets the links asked for before `now` less 24 hours (ISO-8601 UTC): the hourly sweep's. @returns how many. */
  async forgetSends(now: string): Promise<number> {
    const before = new Date(Date.parse(now) - SEND_MEMORY_MS).toISOString();
    const deleted = await this.db.deleteFrom('resume_link_sends').where('created_at', '<', before).executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  /** Forgets the links asked for `email`'s mailbox (a data-subject erasure: what is left of them is its hash). */
  async forgetMailbox(email: string): Promise<void> {
    await this.db.deleteFrom('resume_link_sends').where('mailbox_hash', '=', mailboxHash(email)).execute();
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
