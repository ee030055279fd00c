import { appendEvents } from './outbox';
import { isDeepStrictEqual } from 'node:util';
import type { Kysely, Transaction } from 'kysely';
import { pageAuditSubject, type PageAuditAction, type PageStatus, type UpdatePage } from '../../shared/pages';
import { systemClock, type Clock } from '../clock';
import type { AuditRepository } from './audit';
import { lockRows, lockScope } from './locks';
import type { Database } from './schema';

/** A stored page as the admin API reads it (times ISO-8601 UTC; `draft` the JSON text). */
export interface PageRecord {
  id: string;
  status: PageStatus;
  draft: string;
  revision: number;
  updatedBy: string;
  updatedAt: string;
  publishedVersion: number | null;
  opensAt: string | null;
  closesAt: string | null;
  maxApplications: number | null;
  createdAt: string;
  createdBy: string;
  /** Its host names, sorted. */
  hosts: string[];
}

/** A page that has a version to serve, with that version's configuration (JSON text). */
export interface PublishedPageRecord extends Omit<PageRecord, 'draft' | 'revision' | 'updatedBy' | 'updatedAt' | 'createdAt' | 'createdBy'> {
  publishedVersion: number;
  config: string;
  /** Applications stored for the page, all statuses: the slots taken with a cap (`pages.taken`), else the tallies. */
  applications: number;
}

/** A write refused because the draft changed since the editor read it: who changed it last, and when. */
export interface StaleRevision {
  stale: { revision: number; updatedBy: string; updatedAt: string };
}

/** What a change of a page answers when it is refused: no such page, or a stale revision. */
export type PageRefusal = { missing: true } | StaleRevision;

/** What the configuration's checks say of a draft at publish: the configuration to store, or its problems. */
export type PublishCheck = { config: unknown; problems?: never } | { config?: never; problems: { path: string; message: string }[] };

const toRecord = (row: Database['pages'], hosts: string[]): PageRecord => ({
  id: row.id,
  status: row.status as PageStatus,
  draft: row.draft,
  revision: Number(row.revision),
  updatedBy: row.updated_by,
  updatedAt: row.updated_at,
  publishedVersion: row.published_version === null ? null : Number(row.published_version),
  opensAt: row.opens_at,
  closesAt: row.closes_at,
  maxApplications: row.max_applications === null ? null : Number(row.max_applications),
  createdAt: row.created_at,
  createdBy: row.created_by,
  hosts,
});

/**
 * A draft copied to the page `id`: its `pageId` becomes `id`, and a `requestUrl` that named the
 * source's submit path (`/api/syncPage/{source}`) names the new page's, so the copy never submits
 * to the page it was copied from. Anything but a JSON object is kept as it is.
 */
export function retargetDraft(draft: unknown, id: string): unknown {
  if (typeof draft !== 'object' || draft === null || Array.isArray(draft)) return draft;
  const copy = { ...(draft as Record<string, unknown>) };
  if (typeof copy.requestUrl === 'string' && copy.requestUrl === `/api/syncPage/${String(copy.pageId)}`) copy.requestUrl = `/api/syncPage/${id}`;
  copy.pageId = id;
  return copy;
}

/**
 * Campaign pages (migration 012; docs/decisions/021): drafts with a revision, immutable
 * published versions, status, dates, cap and host names. Every change runs in one transaction
 * with its audit entry (`page:{id}` in the audit log: who, when, what). Changes of one page are
 * serialised by its row's lock (`lockRows`): two publishes never make the same version or skip
 * one; host names by one lock of their own (`lockScope('page-hosts')`), so two pages never take
 * the same name.
 */
export class PageRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditRepository,
    private readonly clock: Clock = systemClock,
  ) {}

  private now() {
    return new Date(this.clock()).toISOString();
  }

  private async log(trx: Transaction<Database>, at: string, pageId: string, actor: string, action: PageAuditAction, from?: string | null, to?: string | null) {
    await this.audit.append(trx, at, [{ applicationId: pageAuditSubject(pageId), actor, action, from: from ?? null, to: to ?? null }]);
  }

  /**
   * Creates the draft page `id`, at revision 1, status `draft`.
   * @param from - `{ draft }`: the configuration to copy (the default page's); `{ page }`: the
   *   stored page whose draft is copied. Either is retargeted to `id` ({@link retargetDraft}).
   * @returns the new page; `taken` when a page has that id, or one that differs from it in case
   *   only (`CREATORS` beside `creators`: two pages an editor, an applicant or the inbox's filter
   *   could take for one another; decision 021's outside attack on the submit path's edges); `source` when the page
   *   `from.page` is not stored.
   */
  async create(id: string, from: { draft: unknown } | { page: string }, actor: string): Promise<PageRecord | 'taken' | 'source'> {
    return this.db.transaction().execute(async (trx) => {
      // One lock for every spelling of the id: `CREATORS` and `creators` created at once wait on each other.
      await lockScope(trx, `page:${id.toLowerCase()}`);
      // The pages are few (one a campaign): a scan with lower() on both stores, no index needed.
      const taken = await trx
        .selectFrom('pages')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['id']), '=', id.toLowerCase()))
        .executeTakeFirst();
      if (taken) return 'taken';
      let source: unknown;
      if ('page' in from) {
        const row = await trx.selectFrom('pages').select('draft').where('id', '=', from.page).executeTakeFirst();
        if (!row) return 'source';
        source = JSON.parse(row.draft) as unknown;
      } else source = from.draft;
      const at = this.now();
      const row: Database['pages'] = {
        id,
        status: 'draft',
        draft: JSON.stringify(retargetDraft(source, id)),
        revision: 1,
        updated_by: actor,
        updated_at: at,
        published_version: null,
        opens_at: null,
        closes_at: null,
        max_applications: null,
        taken: 0,
        created_at: at,
        created_by: actor,
      };
      await trx.insertInto('pages').values(row).execute();
      await this.log(trx, at, id, actor, 'page-created', null, 'page' in from ? from.page : 'default');
      return toRecord(row, []);
    });
  }

  /**
   * Records the pages this server reads from its configuration file (docs/decisions/034, "Two
   * servers on one database"): each page's configuration as JSON, replacing what a server recorded
   * for that id before (the file changed, or another server serves the same id).
   * @param pages - each page's id and its configuration's JSON (parsed, defaults applied).
   * @throws the store's error.
   */
  async recordFilePages(pages: readonly { pageId: string; config: string }[]): Promise<void> {
    const at = this.now();
    for (const page of pages) {
      await this.db
        .insertInto('file_pages')
        .values({ page_id: page.pageId, config: page.config, recorded_at: at })
        .onConflict((conflict) => conflict.column('page_id').doUpdateSet({ config: page.config, recorded_at: at }))
        .execute();
    }
  }

  /** Every page a server on the database recorded from its configuration file: its id and its configuration's JSON. */
  async filePages(): Promise<{ pageId: string; config: string }[]> {
    const rows = await this.db.selectFrom('file_pages').select(['page_id', 'config']).orderBy('page_id').execute();
    return rows.map((row) => ({ pageId: row.page_id, config: row.config }));
  }

  /** The page `id` with its host names, or undefined. */
  async get(id: string): Promise<PageRecord | undefined> {
    const [row, hosts] = await Promise.all([
      this.db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst(),
      this.db.selectFrom('page_hosts').select('host').where('page_id', '=', id).orderBy('host').execute(),
    ]);
    return (
      row &&
      toRecord(
        row,
        hosts.map((h) => h.host),
      )
    );
  }

  /** Every stored page, by id, with its host names. */
  async list(): Promise<PageRecord[]> {
    const [rows, hosts] = await Promise.all([
      this.db.selectFrom('pages').selectAll().orderBy('id').execute(),
      this.db.selectFrom('page_hosts').select(['host', 'page_id']).orderBy('host').execute(),
    ]);
    return rows.map((row) =>
      toRecord(
        row,
        hosts.filter((h) => h.page_id === row.id).map((h) => h.host),
      ),
    );
  }

  /**
   * Applications stored per page id, all statuses: the `application` tallies (migration 009), a
   * few rows per page, never a count of the applications.
   * @param db - the database or a transaction to read in.
   * @param id - only this page.
   */
  async applicationCounts(db: Kysely<Database> = this.db, id?: string): Promise<Map<string, number>> {
    let query = db
      .selectFrom('application_tallies')
      .select(['page_id', (eb) => eb.fn.sum<number | string>('n').as('n')])
      .where('kind', '=', 'application');
    if (id !== undefined) query = query.where('page_id', '=', id);
    const rows = await query.groupBy('page_id').execute();
    return new Map(rows.map((row) => [row.page_id, Number(row.n)]));
  }

  /**
   * Every stored page's draft and every published version's configuration, as stored (JSON
   * text): what `npm run admin -- prune-uploads` reads for the uploads still named.
   */
  async configurationTexts(): Promise<string[]> {
    const [drafts, versions] = await Promise.all([
      this.db.selectFrom('pages').select('draft').execute(),
      this.db.selectFrom('page_versions').select('config').execute(),
    ]);
    return [...drafts.map((row) => row.draft), ...versions.map((row) => row.config)];
  }

  /** The page's published versions, oldest first: when and by whom. */
  async versions(id: string): Promise<{ version: number; publishedAt: string; publishedBy: string }[]> {
    const rows = await this.db
      .selectFrom('page_versions')
      .select(['version', 'published_at', 'published_by'])
      .where('page_id', '=', id)
      .orderBy('version')
      .execute();
    return rows.map((row) => ({ version: Number(row.version), publishedAt: row.published_at, publishedBy: row.published_by }));
  }

  /** The configuration (JSON text) of version `version` of page `id`, or undefined. */
  async version(id: string, version: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('page_versions').select('config').where('page_id', '=', id).where('version', '=', version).executeTakeFirst();
    return row?.config;
  }

  /**
   * Versions `from` to `to` of page `id` (configurations as published, JSON text), in one read, in
   * order; versions not stored are left out.
   */
  async versionConfigs(id: string, from: number, to: number): Promise<{ version: number; config: string }[]> {
    const rows = await this.db
      .selectFrom('page_versions')
      .select(['version', 'config'])
      .where('page_id', '=', id)
      .where('version', '>=', from)
      .where('version', '<=', to)
      .orderBy('version')
      .execute();
    return rows.map((row) => ({ version: Number(row.version), config: row.config }));
  }

  /**
   * The versions of each page that has one (page id → `last`, its newest version, and `served`, the
   * version it serves: an earlier one after a rollback), with one grouped read of the versions'
   * primary key: the inbox labels a page's answers, filters and CSV columns with its versions 1 to
   * `last` (consecutive and immutable, so the two numbers name what they ask).
   * @param id - only this page.
   */
  async versionRange(id?: string): Promise<Map<string, { last: number; served: number }>> {
    let query = this.db
      .selectFrom('page_versions')
      .innerJoin('pages', 'pages.id', 'page_versions.page_id')
      .select(['page_versions.page_id', 'pages.published_version', (eb) => eb.fn.max<number | string>('page_versions.version').as('last')]);
    if (id !== undefined) query = query.where('page_versions.page_id', '=', id);
    const rows = await query.groupBy(['page_versions.page_id', 'pages.published_version']).execute();
    return new Map(rows.map((row) => [row.page_id, { last: Number(row.last), served: Number(row.published_version ?? row.last) }]));
  }

  /**
   * Saves the draft of page `id` (JSON text; the route bounds its size) when `revision` is the
   * current one: the revision goes up by one.
   * @returns the new revision and when it was saved; `missing`, or `stale` with who changed it last and when.
   */
  async saveDraft(id: string, draft: string, revision: number, actor: string): Promise<{ revision: number; updatedAt: string } | PageRefusal> {
    return this.db.transaction().execute(async (trx) => {
      const at = this.now();
      const updated = await trx
        .updateTable('pages')
        .set((eb) => ({ draft, revision: eb('revision', '+', 1), updated_by: actor, updated_at: at }))
        .where('id', '=', id)
        .where('revision', '=', revision)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return this.refusal(trx, id);
      await this.log(trx, at, id, actor, 'page-draft', String(revision), String(revision + 1));
      return { revision: revision + 1, updatedAt: at };
    });
  }

  /** Why a change of page `id` at a revision was refused: no page, or who changed it since. */
  private async refusal(trx: Transaction<Database>, id: string): Promise<PageRefusal> {
    const row = await trx.selectFrom('pages').select(['revision', 'updated_by', 'updated_at']).where('id', '=', id).executeTakeFirst();
    if (!row) return { missing: true };
    return { stale: { revision: Number(row.revision), updatedBy: row.updated_by, updatedAt: row.updated_at } };
  }

  /**
   * Publishes the draft of page `id` at `revision` as version N+1 (1 for the first), served from
   * now (`published_version`, status `published`). In one transaction holding the page's row lock:
   * concurrent publishes of one page make consecutive versions, never the same one twice.
   * @param check - the configuration's checks, run on the draft read under the lock: its problems
   *   refuse the publish, else its `config` (defaults applied) is the version stored.
   * A draft whose configuration is the one served now, on a page open (`published`), makes no
   * new version and changes nothing: the version served, `unchanged` (decision 021, the fifth outside attack, F7).
   * @returns the version made (or served, `unchanged`); `missing`; `stale`; or the check's `problems` (nothing stored).
   */
  async publish(
    id: string,
    revision: number,
    actor: string,
    check: (draft: unknown) => PublishCheck,
  ): Promise<{ version: number; unchanged?: true } | PageRefusal | { problems: { path: string; message: string }[] }> {
    return this.db.transaction().execute(async (trx) => {
      if ((await lockRows(trx, 'pages', [id])).size === 0) return { missing: true as const };
      const page = await trx.selectFrom('pages').select(['draft', 'revision', 'status', 'published_version']).where('id', '=', id).executeTakeFirstOrThrow();
      if (Number(page.revision) !== revision) return this.refusal(trx, id);
      const checked = check(JSON.parse(page.draft) as unknown);
      if (checked.problems) return { problems: checked.problems };
      const config = JSON.stringify(checked.config);
      // What is served already (a double-click, five publishes at once): no new version.
      const served =
        page.published_version === null
          ? undefined
          : await trx.selectFrom('page_versions').select('config').where('page_id', '=', id).where('version', '=', page.published_version).executeTakeFirst();
      if (served?.config === config && page.status === 'published') return { version: Number(page.published_version), unchanged: true as const };
      const last = await trx
        .selectFrom('page_versions')
        .select((eb) => eb.fn.max<number | string | null>('version').as('last'))
        .where('page_id', '=', id)
        .executeTakeFirst();
      const version = Number(last?.last ?? 0) + 1;
      const at = this.now();
      await trx.insertInto('page_versions').values({ page_id: id, version, config, published_at: at, published_by: actor }).execute();
      await trx.updateTable('pages').set({ published_version: version, status: 'published' }).where('id', '=', id).execute();
      // The version made and the draft's revision it was made from.
      await this.log(trx, at, id, actor, 'page-published', page.status, JSON.stringify({ version, revision }));
      await appendEvents(trx, [{ type: 'page.published', occurredAt: at, pageId: id, applicationId: null, data: { version } }]);
      return { version };
    });
  }

  /**
   * Serves version `version` of page `id` again (a rollback): `published_version` becomes it; the
   * status stays (a closed page stays closed).
   * @returns true; `missing` when the page is not stored; `version` when it has no such version.
   */
  async republish(id: string, version: number, actor: string): Promise<true | 'missing' | 'version'> {
    return this.db.transaction().execute(async (trx) => {
      if ((await lockRows(trx, 'pages', [id])).size === 0) return 'missing';
      const exists = await trx.selectFrom('page_versions').select('version').where('page_id', '=', id).where('version', '=', version).executeTakeFirst();
      if (!exists) return 'version';
      const page = await trx.selectFrom('pages').select(['published_version', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
      await trx.updateTable('pages').set({ published_version: version }).where('id', '=', id).execute();
      const at = this.now();
      await this.log(trx, at, id, actor, 'page-republished', page.published_version === null ? null : String(page.published_version), String(version));
      // Served again to applicants: told as a publish (a closed page stays closed, and says nothing).
      if (page.status === 'published')
        await appendEvents(trx, [{ type: 'page.published', occurredAt: at, pageId: id, applicationId: null, data: { version } }]);
      return true;
    });
  }

  /**
   * Records an image uploaded for page `id` (`page-image`): `what` says which (its kind,
   * content hash and widths; never its bytes). The image changes nothing of the page until a draft
   * names it.
   * @returns true; `missing` when the page is not stored.
   */
  async recordImage(id: string, actor: string, what: { kind: string; hash: string; widths: number[] }): Promise<true | 'missing'> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await trx.selectFrom('pages').select('id').where('id', '=', id).executeTakeFirst())) return 'missing';
      await this.log(trx, this.now(), id, actor, 'page-image', null, JSON.stringify(what));
      return true;
    });
  }

  /**
   * Changes what `changes` gives of page `id`: status (either needs a published version),
   * host names (replaced; each of one page), dates, cap. Dates stored in UTC.
   * @returns true; `missing`; `unpublished` when a status (`published` or `closed`) is asked of a page never published;
   *   `{ host }` when a host name (its index in `changes.hosts`) is another page's;
   *   `{ dates }` when the page would close before it opens; `unchanged` when every field given
   *   already has that value (nothing written, no audit entry). The audit entry `page-updated`
   *   holds the fields changed, their values before (`from`, JSON) and after (`to`, JSON).
   */
  async update(
    id: string,
    changes: UpdatePage,
    actor: string,
  ): Promise<true | 'unchanged' | 'missing' | 'unpublished' | { host: { index: number; pageId: string } } | { dates: true }> {
    return this.db.transaction().execute(async (trx) => {
      // Host names first, then the page's row: every change takes them in that order.
      if (changes.hosts) await lockScope(trx, 'page-hosts');
      if ((await lockRows(trx, 'pages', [id])).size === 0) return 'missing';
      const page = await trx.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      // Opened or closed: either is said of a version served, and a page never published has none.
      if (changes.status !== undefined && page.published_version === null) return 'unpublished';
      const utc = (value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : new Date(value).toISOString());
      const set: Partial<Database['pages']> = {};
      if (changes.status) set.status = changes.status;
      if (changes.opensAt !== undefined) set.opens_at = utc(changes.opensAt)!;
      if (changes.closesAt !== undefined) set.closes_at = utc(changes.closesAt)!;
      if (changes.maxApplications !== undefined) set.max_applications = changes.maxApplications;
      // A cap on a page that had none: its slots taken are the applications stored (the tallies),
      // kept exact from here by each submit (migration 013).
      if (changes.maxApplications != null && page.max_applications === null) set.taken = (await this.applicationCounts(trx, id)).get(id) ?? 0;
      const opens = set.opens_at !== undefined ? set.opens_at : page.opens_at;
      const closes = set.closes_at !== undefined ? set.closes_at : page.closes_at;
      if (opens !== null && closes !== null && opens >= closes) return { dates: true as const };
      // What the change makes of each field it names, before and after (the audit's from and to).
      const before: Partial<Record<keyof UpdatePage, unknown>> = {};
      const after: Partial<Record<keyof UpdatePage, unknown>> = {};
      if (changes.status !== undefined) [before.status, after.status] = [page.status, changes.status];
      if (changes.hosts) {
        const hosts = await trx.selectFrom('page_hosts').select('host').where('page_id', '=', id).orderBy('host').execute();
        [before.hosts, after.hosts] = [hosts.map((row) => row.host), [...changes.hosts].sort()];
      }
      if (set.opens_at !== undefined) [before.opensAt, after.opensAt] = [page.opens_at, set.opens_at];
      if (set.closes_at !== undefined) [before.closesAt, after.closesAt] = [page.closes_at, set.closes_at];
      if (set.max_applications !== undefined)
        [before.maxApplications, after.maxApplications] = [page.max_applications === null ? null : Number(page.max_applications), set.max_applications];
      if (isDeepStrictEqual(before, after)) return 'unchanged';
      if (changes.hosts) {
        const hosts = changes.hosts;
        if (hosts.length > 0) {
          const taken = await trx.selectFrom('page_hosts').select(['host', 'page_id']).where('host', 'in', hosts).where('page_id', '<>', id).execute();
          if (taken.length > 0) {
            const index = Math.min(...taken.map((row) => hosts.indexOf(row.host)));
            return { host: { index, pageId: taken.find((row) => row.host === hosts[index])!.page_id } };
          }
        }
        await trx.deleteFrom('page_hosts').where('page_id', '=', id).execute();
        if (hosts.length > 0)
          await trx
            .insertInto('page_hosts')
            .values(hosts.map((host) => ({ host, page_id: id })))
            .execute();
      }
      if (Object.keys(set).length > 0) await trx.updateTable('pages').set(set).where('id', '=', id).execute();
      // What changed, by name: the values before and after (never a draft's text).
      const at = this.now();
      await this.log(trx, at, id, actor, 'page-updated', JSON.stringify(before), JSON.stringify(after));
      if (changes.status !== undefined && changes.status !== page.status) {
        const type = changes.status === 'closed' ? 'page.closed' : 'page.published';
        await appendEvents(trx, [{ type, occurredAt: at, pageId: id, applicationId: null, data: { version: Number(page.published_version) } }]);
      }
      return true;
    });
  }

  /**
   * Every page with a version to serve (published or closed), with that version's configuration,
   * its host names and its applications (the tallies): what the in-memory registry serves.
   * @param id - only this page (its row, when it has a version to serve).
   */
  async published(id?: string): Promise<PublishedPageRecord[]> {
    let query = this.db
      .selectFrom('pages')
      .innerJoin('page_versions', (join) => join.onRef('page_versions.page_id', '=', 'pages.id').onRef('page_versions.version', '=', 'pages.published_version'))
      .select([
        'pages.id',
        'pages.status',
        'pages.published_version',
        'pages.opens_at',
        'pages.closes_at',
        'pages.max_applications',
        'pages.taken',
        'page_versions.config',
      ]);
    let hostsQuery = this.db.selectFrom('page_hosts').select(['host', 'page_id']).orderBy('host');
    // One page (a reload after a change, or after a submit took its last slot): its own host
    // names and tallies, found by their page's id, not every page's.
    if (id !== undefined) {
      query = query.where('pages.id', '=', id);
      hostsQuery = hostsQuery.where('page_id', '=', id);
    }
    const [rows, hosts, counts] = await Promise.all([query.execute(), hostsQuery.execute(), this.applicationCounts(this.db, id)]);
    return rows.map((row) => ({
      id: row.id,
      status: row.status as PageStatus,
      publishedVersion: Number(row.published_version),
      opensAt: row.opens_at,
      closesAt: row.closes_at,
      maxApplications: row.max_applications === null ? null : Number(row.max_applications),
      hosts: hosts.filter((h) => h.page_id === row.id).map((h) => h.host),
      config: row.config,
      // With a cap, the slots taken (exact: migration 013); without, the tallies.
      applications: row.max_applications === null ? (counts.get(row.id) ?? 0) : Number(row.taken),
    }));
  }

  /** The audit entries of page `id`, oldest first. */
  async auditOf(id: string) {
    return this.db
      .selectFrom('audit_log')
      .select(['at', 'actor', 'action', 'from_value', 'to_value'])
      .where('application_id', '=', pageAuditSubject(id))
      .orderBy('id')
      .execute();
  }
}
