import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { validPayload } from '../factories/application';
import { createTestDatabase } from '../support/postgres';
import { startServer, type RunningServer } from './support';
import pg from 'pg';
import { putApplication } from '../support/bot-check';

let database: { url: string; drop: () => Promise<void> };
let servers: RunningServer[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // Migrate once, then start the second process against the migrated database.
  servers.push(await startServer({ DATABASE_URL: database.url }));
  servers.push(await startServer({ DATABASE_URL: database.url }));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  servers = [];
  await database?.drop();
});

const submit = (server: RunningServer, key: string, email: string) =>
  putApplication(server.url, validPayload({ personalInfo: { ...validPayload().personalInfo, emailAddress: email } }), key);

it('two server processes on one PostgreSQL database store every application once', async () => {
  const [a, b] = servers as [RunningServer, RunningServer];
  const first = await submit(a, randomUUID(), 'one@example.com');
  const second = await submit(b, randomUUID(), 'two@example.com');
  expect([first.status, second.status]).toEqual([201, 201]);

  // One application retried against both processes at once: one row.
  const key = randomUUID();
  const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => submit(index % 2 ? a : b, key, 'retry@example.com')));
  const bodies = await Promise.all(answers.map((answer) => answer.json() as Promise<{ id: string }>));
  expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(19);
  expect(new Set(bodies.map((body) => body.id)).size).toBe(1);

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const { rows } = await client.query<{ email: string; n: string }>('select email, count(*) as n from applications group by email order by email');
  await client.end();
  expect(rows).toEqual([
    { email: 'one@example.com', n: '1' },
    { email: 'retry@example.com', n: '1' },
    { email: 'two@example.com', n: '1' },
  ]);
  // Both processes serve the same wizard.
  const pages = await Promise.all([a, b].map((server) => fetch(`${server.url}/`).then((response) => response.text())));
  expect(pages[0]).toBe(pages[1]);
});
