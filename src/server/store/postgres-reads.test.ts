import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applicantPayload } from '../../../tests/factories/application';
import { createTestDatabase } from '../../../tests/support/postgres';
import { openStore, type Store } from './store';

// On PostgreSQL the inbox's reads run on a pool of their own, so however many hang (an
// attack's heavy summaries), submits still find a connection.

let database: { url: string; drop: () => Promise<void> };
let store: Store;
beforeAll(async () => {
  database = await createTestDatabase();
  store = await openStore(database.url);
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

it('stores a submit while a dozen inbox reads wait on a lock', async () => {
  const blocker = new pg.Client({ connectionString: database.url });
  await blocker.connect();
  try {
    // Reads of a tag filter wait behind this lock; a submit never reads the tags.
    await blocker.query('begin');
    await blocker.query('lock table application_tags in access exclusive mode');
    const reads = Array.from({ length: 12 }, () => store.applications.listApplications({ tag: '00000000-0000-0000-0000-000000000000' }, { limit: 10 }));
    const payload = applicantPayload({ firstName: 'Ada', lastName: 'Tester', email: 'ada@example.com' });
    const started = performance.now();
    await store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
    // Well under the pool's 5 s wait for a connection.
    expect(performance.now() - started).toBeLessThan(4000);
    await blocker.query('commit');
    expect(await Promise.all(reads)).toEqual(Array.from({ length: 12 }, () => []));
  } finally {
    await blocker.end();
  }
}, 30_000);
