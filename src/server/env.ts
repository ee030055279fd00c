import * as z from 'zod/mini';

/** The server's environment (DESIGN §3), validated at start-up. */
export const EnvSchema = z.object({
  PORT: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65535)), 3000),
  HOST: z._default(z.string().check(z.minLength(1)), '127.0.0.1'),
  DATABASE_URL: z._default(z.string().check(z.minLength(1)), 'sqlite:./data/applications.db'),
  WIZARD_CONFIG: z._default(z.string().check(z.minLength(1)), 'config/wizard.json'),
  RATE_LIMIT_PER_MINUTE: z._default(z.coerce.number().check(z.int(), z.positive()), 30),
  LOG_LEVEL: z._default(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  /** Inbox sessions end after this many minutes unused (issue 7, decision 004). */
  ADMIN_SESSION_IDLE_MINUTES: z._default(z.coerce.number().check(z.int(), z.positive()), 480),
  /** Inbox sessions end this many hours after sign-in, used or not. */
  ADMIN_SESSION_MAX_HOURS: z._default(z.coerce.number().check(z.int(), z.positive()), 24),
  /** Failed inbox sign-ins per e-mail in 15 minutes before 429. */
  ADMIN_SIGN_IN_LIMIT_PER_ACCOUNT: z._default(z.coerce.number().check(z.int(), z.positive()), 5),
  /** Failed inbox sign-ins per client IP in 15 minutes before 429. */
  ADMIN_SIGN_IN_LIMIT_PER_IP: z._default(z.coerce.number().check(z.int(), z.positive()), 30),
  /**
   * Signs the anti-forgery tokens (issue 11, decision 007): at least 32 characters; absent, the
   * server generates one on first start and keeps it in the database.
   */
  SECRET: z.optional(z.string().check(z.minLength(32, 'expected at least 32 characters'))),
  TRUST_PROXY: z.pipe(
    z._default(z.enum(['on', 'off', 'true', 'false', '1', '0']), 'off'),
    z.transform((value) => ['on', 'true', '1'].includes(value)),
  ),
});

/** Variables whose values never appear in a message or a log. */
const SECRET_VARIABLES = new Set(['SECRET']);

/** The parsed environment. */
export type Env = z.output<typeof EnvSchema>;

/**
 * Parses the environment.
 * @throws Error with a one-line message naming the variable (`PORT: expected a number …`).
 */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const result = EnvSchema.safeParse(present);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? 'environment');
  // A secret is never echoed, not even a wrong one.
  const got = SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(source[name])})`;
  throw new Error(`${name}: ${issue?.message ?? 'invalid'}${got}`);
}
