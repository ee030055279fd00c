/**
 * The data-subject section of `npm run bench` (BENCH_PERSON=off skips it; docs/performance.md,
 * "A person's data at a million applications"): what an operator runs for one person's request
 * (docs/privacy.md, "A person's data"), `npm run admin -- export-person EMAIL` and then
 * `erase-person EMAIL`, each a whole process from spawn to exit, on a store holding
 * BENCH_ROWS applications (a million) with a confirmation e-mail and a webhook delivery logged for
 * each, beside the same commands on a store holding nothing else, in the same run; SQLite and,
 * when TEST_DATABASE_URL is set, PostgreSQL. The person applied three times on two pages, and the
 * team noted, tagged and declined one of them: what their export and erasure must reach.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStore, type Store } from '../src/server/store/store';
import { benchPayload, BENCH_PAGE_ID } from './client';
import { median } from './statistics';
import { filledPostgres, filledSqlite, type BenchDatabase } from './stored';

const FULL_ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = 3;
const PERSON = 'dsr.person@example.com';
const OTHER_PAGE = 'summer-campaign';

/**
 * Logs, as the product's own dispatch would have, one confirmation e-mail and one webhook delivery
 * per stored application (one SQL statement each): the tables a person's request searches by
 * application hold as many rows as the applications.
 */
async function fillLogs(url: string): Promise<void> {
  const statements = [
    `insert into webhook_endpoints (id, url, kind, events, payload, description, secret, state, created_at, created_by, updated_at)
      values ('bench-endpoint', 'https://hooks.example/bench', 'standard', '["application.submitted"]', 'full', '', 'whsec_bench', 'active',
        '2026-01-01T00:00:00.000Z', 'bench', '2026-01-01T00:00:00.000Z')`,
    `insert into email_messages (id, dedupe_key, kind, page_id, application_id, data, recipient, recipient_key, subject, content, headers, state, attempts, next_attempt_at, created_at, sent_at)
      select 'msg_' || id, 'confirmation:' || id, 'confirmation', page_id, id, '{}', email, email, 'We received your application', '', '{}', 'sent', 1, 0, received_at, received_at
      from applications`,
    `insert into webhook_deliveries (id, endpoint_id, event_id, type, occurred_at, page_id, application_id, data, state, attempts, next_attempt_at, delivered_at, created_at)
      select 'dlv_' || id, 'bench-endpoint', 'evt_' || id, 'application.submitted', received_at, page_id, id, '{}', 'delivered', 1, 0, received_at, received_at
      from applications`,
  ];
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length));
    try {
      db.transaction(() => statements.forEach((statement) => db.exec(statement)))();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

/** The person's three applications (two pages), a note, a tag and a decision on one of them. */
async function addPerson(store: Store): Promise<void> {
  const ids: string[] = [];
  for (const [n, pageId] of [
    [0, BENCH_PAGE_ID],
    [1, BENCH_PAGE_ID],
    [2, OTHER_PAGE],
  ] as const) {
    const payload = benchPayload(n, `dsr${randomUUID().slice(0, 6)}`);
    payload.personalInfo.emailAddress = n === 1 ? PERSON.toUpperCase() : PERSON;
    const saved = await store.applications.save({ pageId, idempotencyKey: randomUUID(), emailAddress: payload.personalInfo.emailAddress, payload });
    ids.push(saved.id);
  }
  await store.notes.add(ids[0]!, 'bench.editor@brand.example', 'Spoke on the phone; lovely unboxing videos.');
  const tag = await store.tags.create('shortlist');
  if (tag !== 'full') await store.tags.bulk([ids[0]!], { add: [tag.tag.id] }, 'bench.editor@brand.example');
  await store.applications.setStatuses([ids[1]!], 'declined', 'bench.editor@brand.example');
}

/**
 * `npm run admin -- <command> <email>` on `url`: ms from spawn to its first output on standard output
 * (erase-person says it erased once that has committed) and to its exit (on SQLite erase-person
 * then scrubs the file: docs/decisions/005); throws unless it exits 0.
 */
function admin(url: string, command: string): Promise<{ ms: number; saidMs: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', command, PERSON], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let saidMs = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout === '') saidMs = performance.now() - started;
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve({ ms: performance.now() - started, saidMs, stdout });
      else reject(new Error(`${command} exited ${code}: ${stderr.slice(0, 500)}`));
    });
  });
}

/** One store at one size: {@link RUNS} rounds of set up the person → export → erase, medians in ms. */
async function measure(filled: (rows: number) => Promise<BenchDatabase>, rows: number) {
  const database = await filled(rows);
  const exports: number[] = [];
  const erasures: number[] = [];
  const exits: number[] = [];
  let applications = 0;
  try {
    await fillLogs(database.url);
    for (let run = 0; run < RUNS; run++) {
      const setUp = await openStore(database.url, { sqliteWriterThread: false, scrubOnOpen: false });
      try {
        await addPerson(setUp);
      } finally {
        await setUp.close();
      }
      const exported = await admin(database.url, 'export-person');
      applications = (JSON.parse(exported.stdout) as { applications: unknown[] }).applications.length;
      exports.push(exported.ms);
      const erased = await admin(database.url, 'erase-person');
      if (!erased.stdout.includes('Erased 3 applications')) throw new Error(`erase-person said: ${erased.stdout}`);
      erasures.push(erased.saidMs);
      exits.push(erased.ms);
    }
  } finally {
    await database.drop();
  }
  if (applications !== 3) throw new Error(`the export held ${applications} applications, not 3`);
  return { exportMs: Math.round(median(exports)), eraseMs: Math.round(median(erasures)), exitMs: Math.round(median(exits)) };
}

/** The section's table (see the module's comment). */
export async function benchPerson(): Promise<void> {
  console.log(
    `\nA person's data: \`npm run admin -- export-person\` then \`erase-person\` for one person (three applications, two pages), whole processes, medians of ${RUNS}:\n`,
  );
  const full = FULL_ROWS.toLocaleString('en');
  console.log(
    `| store | export, nothing else stored ms | export, ${full} applications ms | erased, nothing else stored ms | erased, ${full} applications ms | and the file scrubbed (SQLite), ${full} applications ms |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  const stores: [string, (rows: number) => Promise<BenchDatabase>][] = [['SQLite', filledSqlite]];
  if (process.env.TEST_DATABASE_URL) stores.push(['PostgreSQL', filledPostgres]);
  for (const [name, filled] of stores) {
    const empty = await measure(filled, 0);
    const large = await measure(filled, FULL_ROWS);
    console.log(`| ${name} | ${empty.exportMs} | ${large.exportMs} | ${empty.eraseMs} | ${large.eraseMs} | ${name === 'SQLite' ? large.exitMs : ''} |`);
  }
}
