import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applicantPayload } from '../../tests/factories/application';
import { connect } from 'node:net';
import { startServer } from '../../tests/e2e/support';
import { ROOT, SERVER_ENV, SERVER_SCRIPT, serverCommand } from '../../tests/support/server-process';
import { SESSION_COOKIE } from './constants';
import { openStore } from './store/store';
import { createTestUser } from '../../tests/support/users';

// requirements §12: a bad value stops start-up with one line naming the variable; an invalid
// configuration stops it naming the JSON path of the problem. The real entry point, as
// `npm start` runs it.

const dir = mkdtempSync(join(tmpdir(), 'server-start-'));

/** Runs the compiled server as `npm start` does, with `env`, until it exits (or 20 s pass). */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const command = serverCommand();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, command.args, {
      cwd: ROOT,
      env: { ...process.env, ...command.env, PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'applications.db')}`, LOG_LEVEL: 'warn', ...env },
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe('start-up refuses bad input with one line that names it (requirements §12)', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['LOG_LEVEL', 'loud'],
    ['ADMIN_SESSION_IDLE_MINUTES', '-5'],
    ['ADMIN_SESSION_MAX_HOURS', 'a day'],
    ['ADMIN_SIGN_IN_LIMIT_PER_ACCOUNT', '0'],
    ['ADMIN_SIGN_IN_LIMIT_PER_IP', '1.5'],
    ['DATABASE_URL', 'mysql://db.example/applications'],
    ['DATABASE_URL', 'sqlite:/dev/null/applications.db'],
    ['WIZARD_CONFIG', join(dir, 'missing.json')],
    ['SUBMIT_ORIGINS_ALLOWED', 'https://*'],
    ['SUBMIT_ORIGINS_ALLOWED', 'https://crm.brand.example/collect'],
  ])('%s=%s', async (name, value) => {
    const { code, stderr } = await start({ [name]: value });
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${name}: `));
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a database server that cannot be reached is named as such, not as a failed migration', async () => {
    const { code, stderr } = await start({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(/^DATABASE_URL: cannot connect to the database: .*ECONNREFUSED/);
  });

  it('TRUST_PROXY=on names the accepted forms (decision 006)', async () => {
    const { code, stderr } = await start({ TRUST_PROXY: 'on' });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'TRUST_PROXY: "on" would believe any client\'s X-Forwarded-For; expected off, a hop count (1) or a comma-separated list of proxy addresses and CIDRs (10.0.0.0/8,127.0.0.1) (got "on")',
    );
  });

  it('names the JSON path of a configuration problem', async () => {
    const raw = JSON.parse(readFileSync('config/wizard.json', 'utf8')) as { steps: { blocks: { data: Record<string, unknown> }[] }[] };
    raw.steps[2]!.blocks[1]!.data.options = 'not a list';
    const file = join(dir, 'invalid.json');
    writeFileSync(file, JSON.stringify(raw));
    const { code, stderr } = await start({ WIZARD_CONFIG: file });
    expect(code).toBe(1);
    expect(stderr).toContain(file);
    expect(stderr).toContain('steps[2].blocks[1].data.options');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a configuration that would break its page or send its applications elsewhere (decision 021’s outside attack on the submit path’s edges)', () => {
  /** Starts the server on the default page changed by `edit`; its exit code and what it said. */
  const startWith = async (edit: (raw: Record<string, unknown>) => void, env: Record<string, string> = {}) => {
    const raw = JSON.parse(readFileSync('config/wizard.json', 'utf8')) as Record<string, unknown>;
    edit(raw);
    const file = join(dir, 'edges.json');
    writeFileSync(file, JSON.stringify(raw));
    return { file, ...(await start({ WIZARD_CONFIG: file, ...env })) };
  };

  it('names the JSON path of a URL whose host would break the policy, a wildcard, a path that leaves the site', async () => {
    const { code, stderr, file } = await startWith((raw) => {
      raw.logo = 'https://a.example;x/logo.png';
      raw.analytics = { token: 't', host: 'https://*' };
      raw.signUpUrl = '//evil.example/phish';
    });
    expect(code).toBe(1);
    expect(stderr).toContain(file);
    expect(stderr).toContain('logo: "a.example;x" is not a host name');
    expect(stderr).toContain('analytics.host: "*" is not a host name');
    expect(stderr).toContain('signUpUrl: expected a path on this site');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('names requestUrl when it sends the applications to an origin SUBMIT_ORIGINS_ALLOWED does not list', async () => {
    const { code, stderr } = await startWith((raw) => (raw.requestUrl = 'https://evil.example/collect'), {
      SUBMIT_ORIGINS_ALLOWED: 'https://crm.brand.example',
    });
    expect(code).toBe(1);
    expect(stderr).toContain(
      'requestUrl: applications may be sent to this server or to an origin the operator allows (SUBMIT_ORIGINS_ALLOWED: https://crm.brand.example), not to https://evil.example',
    );
  });
});

describe('inbox settings from the environment (README, decision 004)', () => {
  it('ADMIN_SIGN_IN_LIMIT_PER_ACCOUNT=2: the third failed sign-in for one e-mail is 429 with Retry-After', async () => {
    const server = await startServer({ ADMIN_SIGN_IN_LIMIT_PER_ACCOUNT: '2' });
    try {
      const signIn = () =>
        fetch(`${server.url}/api/admin/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'nobody@brand.example', password: 'not the password at all' }),
        });
      expect((await signIn()).status).toBe(401);
      expect((await signIn()).status).toBe(401);
      const limited = await signIn();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  });
});

describe('SIGTERM', () => {
  it('does not wait for a connection that never sent a request (a browser preconnect)', async () => {
    const server = await startServer();
    const { port } = new URL(server.url);
    const preconnect = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => preconnect.once('connect', resolve));
    const ended = new Promise((resolve) => preconnect.once('close', resolve));
    const started = Date.now();
    await server.stop();
    await ended;
    // Node's own wait for such a connection is its headers timeout: 60 s.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('route schemas in the compiled server (decision 018)', () => {
  it('answers a body that fails its schema with the field and the English message the source gives', async () => {
    const server = await startServer();
    try {
      const response = await fetch(`${server.url}/api/admin/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'ana@brand.example', password: 42 }),
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      // zod's English locale (src/shared/zod.ts), not zod/mini's bare 'Invalid input'.
      expect(await response.json()).toMatchObject({
        detail: 'Send { email, password }.',
        errors: [{ path: 'password', message: expect.stringMatching(/expected string/i) }],
      });
    } finally {
      await server.stop();
    }
  });
});

describe('npm start', () => {
  it('runs the server compiled to JavaScript, in production mode, after building it', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const env = Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`);
    expect(scripts.start).toBe([...env, 'node', SERVER_SCRIPT].join(' '));
    expect(scripts.prestart).toBe('npm run build');
    expect(scripts.build).toContain('vite build -c vite.server.config.ts');
    expect(existsSync(join(ROOT, SERVER_SCRIPT))).toBe(true);
  });

  it("leaves unloaded what a SQLite server does not need to be ready: pg, Fastify's schema compilers, sharp, the e-mail renderer and nodemailer", async () => {
    const file = join(dir, 'loaded-modules.txt');
    writeFileSync(file, '');
    const server = await startServer({
      LOADED_MODULES_FILE: file,
      NODE_OPTIONS: `--import ${join(ROOT, 'tests/support/record-modules.mjs')}`,
    });
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
    const loaded = readFileSync(file, 'utf8').split('\n');
    // The recorder works: the server's own packages are listed.
    expect(loaded.some((line) => line.includes('/node_modules/fastify/'))).toBe(true);
    expect(loaded.some((line) => line.includes('/node_modules/better-sqlite3/'))).toBe(true);
    const unneeded = loaded.filter((line) =>
      /\/node_modules\/(pg|pg-pool|@fastify\/ajv-compiler|ajv|@fastify\/fast-json-stringify-compiler|sharp|@img|@react-email|prettier|nodemailer)\//.test(line),
    );
    expect(unneeded).toEqual([]);
  });

  it('exports CSV through its compiled export thread (build/server/export.worker.mjs, docs/decisions/014)', async () => {
    expect(existsSync(join(ROOT, 'build/server/export.worker.mjs'))).toBe(true);
    const server = await startServer();
    try {
      const store = await openStore(`sqlite:${server.dbFile}`, { scrubOnOpen: false, sqliteWriterThread: false });
      try {
        await createTestUser(store, { email: 'viewer@brand.example', password: 'viewer password 1' }, 'viewer');
        const payload = applicantPayload({ firstName: '=Ada', lastName: 'Lovelace', email: 'ada@example.com' });
        await store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload });
      } finally {
        await store.close();
      }
      const signIn = await fetch(`${server.url}/api/admin/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'viewer@brand.example', password: 'viewer password 1' }),
      });
      expect(signIn.status).toBe(204);
      const session = signIn.headers
        .getSetCookie()
        .find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`))!
        .split(';')[0]!;
      const csv = await fetch(`${server.url}/api/admin/applications.csv`, { headers: { cookie: session } });
      expect(csv.status).toBe(200);
      const text = Buffer.from(await csv.arrayBuffer()).toString('utf8');
      expect(text.startsWith('\uFEFFID,Page,Received,Status,Note,')).toBe(true);
      expect(text).toContain(",'=Ada,");
      expect(text).toContain('ada@example.com');
    } finally {
      await server.stop();
    }
  });
});
