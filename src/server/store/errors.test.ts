import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { isStoreUnavailable } from './errors';
import { openStore } from './store';

it('takes a read of a store already closed (a request still in flight as the server shuts down) for the store unavailable: 503, not 500', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'closed-store-'));
  try {
    const store = await openStore(`sqlite:${join(dir, 'applications.db')}`);
    await store.close();
    const failed = await store.applications.findById('0190f3a2-0000-7000-8000-000000000000').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(isStoreUnavailable(failed)).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
