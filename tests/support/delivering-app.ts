import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { WizardConfig } from '../../src/shared/config';
import type { ApplicationPayload } from '../../src/shared/payload';
import { buildApp, type AppOptions, type EmailOptions, type WebhookOptions } from '../../src/server/app';
import { openStore } from '../../src/server/store/store';
import { UserExistsError } from '../../src/server/store/users';
import { parseAllowNetworks } from '../../src/server/webhooks/address-policy';
import { defaultConfig, validPayload } from '../factories/application';
import { inboxSession, testDist } from './test-app';
import { createTestUser } from './users';
import { TEST_SECRET, xsrfPair } from './xsrf';

/** The inbox's owner (integrations are theirs), editor and viewer of the integrations' tests. */
export const OWNER = { email: 'owner@brand.example', password: 'owner password 12' };
export const EDITOR = { email: 'editor@brand.example', password: 'editor password 1' };
export const VIEWER = { email: 'viewer@brand.example', password: 'viewer password 1' };

/** `WEBHOOK_ALLOW_NETWORKS=127.0.0.0/8`: the tests' receivers are on this machine. */
export const LOOPBACK = (parseAllowNetworks('127.0.0.0/8') as { networks: [] }).networks;

/**
 * An app over `url`'s store that delivers what its outbox holds (webhooks and e-mail), with an
 * owner's, an editor's and a viewer's sessions (headers to send); `clock` the store's and the senders'.
 * @param options.config - the default page (the default configuration unless given).
 */
export async function deliveringApp(
  url: string,
  options: { webhooks: WebhookOptions; email?: EmailOptions; config?: WizardConfig; clock?: () => number; retention?: AppOptions['retention'] },
) {
  const dist = testDist('delivering-');
  const store = await openStore(url, options.clock ? { clock: options.clock } : {});
  // A server started again on the same database (a restart) finds its members there already.
  for (const [email, role] of [
    [OWNER, 'owner'],
    [EDITOR, 'editor'],
    [VIEWER, 'viewer'],
  ] as const)
    await createTestUser(store, email, role).catch((error: unknown) => {
      if (!(error instanceof UserExistsError)) throw error;
    });
  const app = await buildApp({
    config: options.config ?? defaultConfig(),
    store,
    distDir: dist.distDir,
    rateLimitPerMinute: 10_000,
    secret: TEST_SECRET,
    webhooks: options.webhooks,
    ...(options.email ? { email: options.email } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.retention ? { retention: options.retention } : {}),
  });
  await app.ready();
  const as = (session: { cookie: string; xsrf: string }) => ({ cookie: session.cookie, 'x-xsrf-token': session.xsrf });
  return {
    app,
    store,
    owner: as(await inboxSession(app, OWNER)),
    editor: as(await inboxSession(app, EDITOR)),
    viewer: as(await inboxSession(app, VIEWER)),
    async close() {
      await app.close();
      await store.close();
      dist.remove();
    },
  };
}

/**
 * Submits one application to page `pageId` (the default page unless given) as the wizard does
 * (its anti-forgery pair, an Idempotency-Key), with `personalInfo` changed as given; expects 201.
 * @returns the application's id.
 */
export async function submitApplication(
  app: FastifyInstance,
  personalInfo: Partial<ApplicationPayload['personalInfo']> = {},
  pageId = 'creators',
): Promise<string> {
  const payload = validPayload();
  payload.personalInfo = { ...payload.personalInfo, emailAddress: `ada.${randomUUID().slice(0, 8)}@example.com`, ...personalInfo };
  const response = await app.inject({
    method: 'PUT',
    url: `/api/syncPage/${pageId}`,
    headers: { ...xsrfPair().headers, 'idempotency-key': randomUUID() },
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}
