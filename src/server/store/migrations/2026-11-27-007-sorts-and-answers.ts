import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The platforms with followers, and where a payload held each, when this migration shipped
 * (requirements §3): the `platforms` group, or `fields.single.{platform}` for the single-field ones.
 * Website is left out: its number is monthly traffic, not followers. Frozen copies.
 */
const FOLLOWED = ['instagram', 'facebook', 'youtube', 'twitter', 'tiktok', 'twitch', 'pinterest', 'linkedin', 'snapchat', 'threads', 'reddit'];
const SINGLE_FIELD_PLATFORMS = ['linkedin', 'threads', 'reddit'];
/** Longest answer kept in `application_answers`, in characters (longer texts are cut; `contains` searches the payload). */
const MAX_ANSWER_ROW_LENGTH = 200;
/** Rows read and written per transaction while backfilling. */
const BACKFILL_BATCH = 1000;

/** The new columns and answer rows of a payload stored before this migration, derived as the server did when it shipped. */
function backfill(payload: unknown) {
  const record = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
  const groups = record(record(payload).platforms);
  const fields = record(record(payload).fields);
  const info = record(record(payload).personalInfo);
  let total = 0;
  let top = { platform: '', followers: 0 };
  for (const platform of FOLLOWED) {
    const single = SINGLE_FIELD_PLATFORMS.includes(platform);
    const handle = single ? fields[`single.${platform}.handle`] : record(groups[platform]).handle;
    const followers = single ? fields[`single.${platform}.followers`] : record(groups[platform]).followers;
    if (typeof handle !== 'string' || handle === '' || typeof followers !== 'string' || !/^\d{1,15}$/.test(followers)) continue;
    const count = Number(followers);
    total += count;
    if (count > top.followers) top = { platform, followers: count };
  }
  const answers: { key: string; value: string }[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (key.startsWith('single.') || typeof value !== 'string' || value === '') continue;
    if (value.length > MAX_ANSWER_ROW_LENGTH) {
      answers.push({ key, value: Array.from(value).slice(0, MAX_ANSWER_ROW_LENGTH).join('') });
      continue;
    }
    for (const part of new Set([value, ...(value.includes(', ') ? value.split(', ') : [])])) if (part !== '') answers.push({ key, value: part });
  }
  const name = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    total_followers: total,
    top_platform: top.platform,
    top_followers: top.followers,
    sort_name: `${name(info.firstName)} ${name(info.lastName)}`.trim().toLowerCase(),
    answers,
  };
}

/**
 * Migration `2026-11-27-007-sorts-and-answers`: the inbox's sorts and answer filters.
 * - `total_followers`, `top_platform`, `top_followers`: the followers summed over the platforms,
 *   and the platform with the most (website's traffic is not followers); `sort_name`, the name
 *   lower-cased. Each sort walks an index ending in `(received_at, id)`, the keyset's tie-break.
 * - `application_answers`: one row per survey answer (a longer text cut to its first 200
 *   characters), and one per option of a multi-select answer (`A, B` also as `A` and `B`), for
 *   filters on answers and the summary's counts.
 * - `saved_views`: each user's named list views.
 * Rows stored before are backfilled from their payload, a thousand per transaction.
 * Frozen: it imports nothing but Kysely, so it runs tomorrow as it ran when it shipped.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const alter = () => db.schema.alterTable('applications');
    await alter()
      .addColumn('total_followers', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await alter()
      .addColumn('top_platform', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await alter()
      .addColumn('top_followers', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await alter()
      .addColumn('sort_name', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .createTable('application_answers')
      .addColumn('application_id', 'text', (c) => c.notNull())
      .addColumn('page_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    let after = '';
    for (;;) {
      const { rows } = await sql<{ id: string; page_id: string; payload: string }>`select id, page_id, payload from applications
        where id > ${after} order by id limit ${BACKFILL_BATCH}`.execute(db);
      if (rows.length === 0) break;
      after = rows.at(-1)!.id;
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          let payload: unknown;
          try {
            payload = JSON.parse(row.payload.replace(/^\uFEFF/, ''));
          } catch {
            continue;
          }
          const derived = backfill(payload);
          await sql`update applications set total_followers = ${derived.total_followers}, top_platform = ${derived.top_platform},
            top_followers = ${derived.top_followers}, sort_name = ${derived.sort_name} where id = ${row.id}`.execute(trx);
          for (const answer of derived.answers) {
            await sql`insert into application_answers (application_id, page_id, key, value)
              values (${row.id}, ${row.page_id}, ${answer.key}, ${answer.value})`.execute(trx);
          }
        }
      });
    }

    // Indexes after the backfill: built once rather than kept up row by row.
    const index = (name: string, table: string, columns: string[]) => db.schema.createIndex(name).on(table).columns(columns).execute();
    await index('applications_total_followers', 'applications', ['total_followers', 'received_at', 'id']);
    await index('applications_top_followers', 'applications', ['top_followers', 'received_at', 'id']);
    await index('applications_sort_name', 'applications', ['sort_name', 'received_at', 'id']);
    await index('applications_country_code', 'applications', ['country_code', 'received_at', 'id']);
    await index('application_answers_key_value', 'application_answers', ['key', 'value', 'application_id']);
    await index('application_answers_application_id', 'application_answers', ['application_id']);

    // Saved views: a user's named list views (filters and sort as a query string), one per name.
    await db.schema
      .createTable('saved_views')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('saved_views_user_name', ['user_id', 'name'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('saved_views').execute();
    await db.schema.dropTable('application_answers').execute();
    for (const name of ['applications_total_followers', 'applications_top_followers', 'applications_sort_name', 'applications_country_code']) {
      await db.schema.dropIndex(name).execute();
    }
    for (const column of ['total_followers', 'top_platform', 'top_followers', 'sort_name'])
      await db.schema.alterTable('applications').dropColumn(column).execute();
  },
};
