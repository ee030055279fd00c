import { spawn } from 'node:child_process';
import { createTestDatabase } from '../tests/support/postgres';
import { sqliteExecDatabase } from '../tests/support/databases';
import { wizardSubmissions } from './client';
import { freePort } from './server-process';
import autocannon from 'autocannon';
const db = process.env.STORE === 'pg' ? await createTestDatabase() : await sqliteExecDatabase('prof-');
const port = await freePort();
const child = spawn(
  'taskset',
  ['-c', '1', process.execPath, ...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof2'] : []), 'build/server/server.mjs'],
  {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
      DATABASE_URL: db.url,
    },
    stdio: 'inherit',
  },
);
for (let i = 0; i < 100; i++) {
  try {
    await fetch(`http://127.0.0.1:${port}/readyz`);
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 100));
  }
}
const url = `http://127.0.0.1:${port}`;
for (const seconds of [3, 10]) {
  const result = await autocannon({ ...(await wizardSubmissions(url, 's' + seconds + Date.now().toString(36))), connections: 50, duration: seconds });
  console.log(seconds, 'req/s', Math.round(result.requests.average), 'non2xx', result.non2xx);
}
const exited = new Promise((r) => child.once('exit', r));
child.kill('SIGTERM');
await exited;
await db.drop();
process.exit(0);
