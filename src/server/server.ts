import { mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { parseEnv } from './env';
import { loadWizardConfig } from './load-config';
import { openStore } from './store/store';
import { parseDatabaseUrl } from './store/connection';
import { largeSqliteWarning } from './store/sqlite-file';
import { uploadsDirOf } from './uploads';

/** Starts the server from the environment (requirements §12); exits 1 with a one-line message on bad input. */
async function main() {
  const env = parseEnv(process.env);
  const config = loadWizardConfig(env.WIZARD_CONFIG, { submitOrigins: env.SUBMIT_ORIGINS_ALLOWED });
  const store = await openStore(env.DATABASE_URL);
  const uploadsDir = uploadsDirOf(env.DATABASE_URL, env.UPLOADS_DIR);
  // Made at start: its files are served from it before the first upload, and a path that cannot be made stops the start.
  try {
    mkdirSync(uploadsDir, { recursive: true });
  } catch (error) {
    throw new Error(`UPLOADS_DIR: cannot create ${uploadsDir} (${(error as Error).message})`);
  }
  const app = await buildApp({
    config,
    store,
    distDir: fileURLToPath(new URL('../../dist', import.meta.url)),
    logger: { level: env.LOG_LEVEL },
    trustProxy: env.TRUST_PROXY,
    ...(env.SECRET ? { secret: env.SECRET } : {}),
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    requestTimeoutMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
    adminSession: { idleMs: env.ADMIN_SESSION_IDLE_MINUTES * 60_000, absoluteMs: env.ADMIN_SESSION_MAX_HOURS * 3_600_000 },
    signInLimits: { perAccount: env.ADMIN_SIGN_IN_LIMIT_PER_ACCOUNT, perAddress: env.ADMIN_SIGN_IN_LIMIT_PER_IP },
    uploads: { dir: uploadsDir },
    submitOrigins: env.SUBMIT_ORIGINS_ALLOWED,
    webhooks: { allowNetworks: env.WEBHOOK_ALLOW_NETWORKS, publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`, deliver: true },
    retention: { sweep: true },
    email: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    ...(env.BOT_CHECK === 'on' ? { botCheck: { minFillMs: env.MIN_FILL_SECONDS * 1000, maxCounter: env.BOT_CHECK_MAX_NUMBER } } : {}),
  });
  app.addHook('onClose', () => store.close());
  const location = parseDatabaseUrl(env.DATABASE_URL);
  if (location.dialect === 'sqlite' && location.file !== ':memory:') {
    const warning = largeSqliteWarning(statSync(location.file, { throwIfNoEntry: false })?.size ?? 0);
    if (warning) app.log.warn(warning);
  }
  const shutdown = (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: env.PORT, host: env.HOST });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
