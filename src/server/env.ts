import { parseAllowNetworks } from './webhooks/address-policy';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import * as z from 'zod/mini';
import { parseSubmitOrigins } from '../shared/urls';

/**
 * Which proxies' `X-Forwarded-For` (and `-Proto`, `-Host`) the server believes
 * (`TRUST_PROXY`, decision 006): `false` — none, the client IP is the socket's;
 * a number `n` — that many proxies in front of the server, the client IP is the
 * `n`-th `X-Forwarded-For` entry from the right (1: the one the balancer appended);
 * a list — the proxies' addresses and CIDRs, the client IP is the right-most
 * address of the chain (socket first) that is not one of them.
 */
export type TrustProxy = false | number | string[];

const TRUST_PROXY_FORMS = 'expected off, a hop count (1) or a comma-separated list of proxy addresses and CIDRs (10.0.0.0/8,127.0.0.1)';

/** The widest trusted ranges: a proxy list names the balancers' network, never a share of the internet. */
const MIN_IPV4_PREFIX = 8;
const MIN_IPV6_PREFIX = 32;

/**
 * True when a CIDR is no wider than {@link MIN_IPV4_PREFIX} / {@link MIN_IPV6_PREFIX}, an
 * IPv4-mapped IPv6 range (`::ffff:0:0/96`) counted as the IPv4 range it maps: `0.0.0.0/1` or
 * `2000::/3` would believe most clients' own `X-Forwarded-For`.
 */
function isNarrowEnough(address: string, prefix: number): boolean {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return prefix >= MIN_IPV4_PREFIX;
  // Within ::/80 lie the IPv4-mapped (and -compatible) addresses: a range there is as wide as the
  // IPv4 range it holds (`::ffff:0:0/96` is every IPv4 address).
  if ((parsed as ipaddr.IPv6).parts.slice(0, 5).every((part) => part === 0)) return prefix >= 96 + MIN_IPV4_PREFIX;
  // Unique local addresses (fc00::/7) are the IPv6 private network, as 10.0.0.0/8 is IPv4's.
  if (parsed.range() === 'uniqueLocal') return prefix >= 7;
  return prefix >= MIN_IPV6_PREFIX;
}

/**
 * Reads `TRUST_PROXY` (decision 006): `off`; a positive hop count (`1`); or a
 * comma-separated list of IPv4/IPv6 addresses and CIDRs (`10.0.0.0/8,127.0.0.1`,
 * a range at most /8 wide for IPv4, /32 for IPv6 outside the unique local fc00::/7). A blanket `on` (or `true`, `yes`,
 * `0.0.0.0/0`, `0.0.0.0/1`, `::ffff:0:0/96`) is refused: it would take the client IP from
 * whatever the client writes in `X-Forwarded-For`.
 * @throws Error whose one-line message names the problem and the accepted forms.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  if (text === 'off') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops >= 1 && Number.isSafeInteger(hops)) return hops;
    throw new Error(`a hop count is 1 or more; ${TRUST_PROXY_FORMS}`);
  }
  if (/^(on|true|yes)$/i.test(text)) throw new Error(`"${text}" would believe any client's X-Forwarded-For; ${TRUST_PROXY_FORMS}`);
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const version = isIP(address);
    const bits = version === 4 ? 32 : 128;
    const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= bits);
    if (version === 0 || !validPrefix || rest.length > 0) {
      const why =
        version !== 0 && Number(prefix) === 0
          ? `"${entry}" would trust every address`
          : entry
            ? `"${entry}" is not an IP address or CIDR`
            : 'an entry is empty';
      throw new Error(`${why}; ${TRUST_PROXY_FORMS}`);
    }
    if (prefix !== undefined && !isNarrowEnough(address, Number(prefix))) {
      throw new Error(`"${entry}" is wider than a proxy network (at most /${MIN_IPV4_PREFIX} for IPv4, /${MIN_IPV6_PREFIX} for IPv6); ${TRUST_PROXY_FORMS}`);
    }
  }
  return entries;
}

/** The server's environment (requirements §12), validated at start-up. */
export const EnvSchema = z.object({
  PORT: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65535)), 3000),
  HOST: z._default(z.string().check(z.minLength(1)), '127.0.0.1'),
  DATABASE_URL: z._default(z.string().check(z.minLength(1)), 'sqlite:./data/applications.db'),
  WIZARD_CONFIG: z._default(z.string().check(z.minLength(1)), 'config/wizard.json'),
  RATE_LIMIT_PER_MINUTE: z._default(z.coerce.number().check(z.int(), z.positive()), 30),
  /**
   * The submit's bot check (docs/decisions/032): `on` (default), every application carries a solved
   * proof-of-work challenge; `off` for a server only the brand's own scripts send to.
   */
  BOT_CHECK: z._default(z.enum(['on', 'off']), 'on'),
  /** The shortest time from an application's challenge to its submit, in seconds (default 3; 0 for none). */
  MIN_FILL_SECONDS: z._default(z.coerce.number().check(z.int(), z.nonnegative()), 3),
  /**
   * The work a challenge asks: the largest number of SHA-256 digests a solver may need (default
   * 50 000: under a second in a phone's browser; half of it on average).
   */
  BOT_CHECK_MAX_NUMBER: z._default(z.coerce.number().check(z.int(), z.positive(), z.maximum(10_000_000)), 50_000),
  LOG_LEVEL: z._default(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  /** Inbox sessions end after this many minutes unused (decision 004). */
  ADMIN_SESSION_IDLE_MINUTES: z._default(z.coerce.number().check(z.int(), z.positive()), 480),
  /** Inbox sessions end this many hours after sign-in, used or not. */
  ADMIN_SESSION_MAX_HOURS: z._default(z.coerce.number().check(z.int(), z.positive()), 24),
  /** Failed inbox sign-ins per e-mail in 15 minutes before 429. */
  ADMIN_SIGN_IN_LIMIT_PER_ACCOUNT: z._default(z.coerce.number().check(z.int(), z.positive()), 5),
  /** Failed inbox sign-ins per client IP in 15 minutes before 429. */
  ADMIN_SIGN_IN_LIMIT_PER_IP: z._default(z.coerce.number().check(z.int(), z.positive()), 30),
  /**
   * Signs the anti-forgery tokens (decision 007): at least 32 characters; absent, the
   * server generates one on first start and keeps it in the database.
   */
  SECRET: z.optional(z.string().check(z.minLength(32, 'expected at least 32 characters'))),
  /**
   * Where uploaded images are kept; default: `uploads` beside a SQLite file, else
   * `./data/uploads` (`uploadsDirOf` in uploads.ts).
   */
  UPLOADS_DIR: z.optional(z.string().check(z.minLength(1))),
  /**
   * How long a request may take to arrive, headers and body, in seconds; then 408 and the
   * connection closed (default 120: a 10 MiB upload at 0.7 Mbit/s; `DEFAULT_REQUEST_TIMEOUT_MS`).
   */
  REQUEST_TIMEOUT_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 120),
  /**
   * The origins a page's `requestUrl` may send applications to besides this server (the attack on
   * the submit path's edges, docs/decisions/021): a comma-separated list of origins
   * (`https://crm.brand.example`); default none. See `parseSubmitOrigins` (src/shared/urls.ts).
   */
  SUBMIT_ORIGINS_ALLOWED: z.pipe(
    z._default(z.string(), ''),
    z.transform((value, context): string[] => {
      try {
        return parseSubmitOrigins(value);
      } catch (error) {
        context.issues.push({ code: 'custom', message: (error as Error).message, input: value });
        return [];
      }
    }),
  ),
  /**
   * The networks webhooks may reach besides public addresses (docs/integrations.md, "Where a
   * webhook may point"): CIDRs separated by commas (`10.20.0.0/16,fd00::/8`; `127.0.0.0/8` for a
   * receiver on this machine); default none: loopback, private and link-local addresses are refused.
   */
  WEBHOOK_ALLOW_NETWORKS: z.pipe(
    z._default(z.string(), ''),
    z.transform((value, context) => {
      const parsed = parseAllowNetworks(value);
      if ('invalid' in parsed) {
        context.issues.push({ code: 'custom', message: `"${parsed.invalid}" is not a network in CIDR form (10.0.0.0/8, fd00::/8)`, input: value });
        return [];
      }
      return parsed.networks;
    }),
  ),
  /**
   * The inbox's address as the team opens it (`https://apply.brand.example`), for the links that
   * integrations send (a Slack message's "Open it in the inbox"); default `http://localhost:{PORT}`.
   */
  PUBLIC_URL: z.optional(
    z.string().check(
      z.refine((value) => {
        try {
          return /^https?:$/.test(new URL(value).protocol);
        } catch {
          return false;
        }
      }, 'expected an http or https URL'),
    ),
  ),
  /**
   * The SMTP server the product's e-mail goes through (docs/email.md): `smtp://user:password@host:587`
   * (STARTTLS when offered) or `smtps://user:password@host:465`. Unset: nothing is sent, and every
   * message is kept in the inbox's e-mail log.
   */
  SMTP_URL: z.optional(
    z.string().check(
      z.refine((value) => {
        try {
          const url = new URL(value);
          return /^smtps?:$/.test(url.protocol) && url.hostname !== '';
        } catch {
          return false;
        }
      }, 'expected smtp://user:password@host:port or smtps://…'),
    ),
  ),
  /** The From of every message (`Brand <applications@brand.example>`); default `Creator applications <no-reply@localhost>`. */
  MAIL_FROM: z.optional(
    z
      .string()
      .check(
        z.refine((value) => /^(?:[^<>\r\n]*<[^@\s<>]+@[^@\s<>]+>|[^@\s<>]+@[^@\s<>]+)$/.test(value.trim()), 'expected an address, or a name and <address>'),
      ),
  ),
  /** Whose X-Forwarded-For to believe: see {@link parseTrustProxy}. */
  TRUST_PROXY: z.pipe(
    z._default(z.string(), 'off'),
    z.transform((value, context): TrustProxy => {
      try {
        return parseTrustProxy(value);
      } catch (error) {
        context.issues.push({ code: 'custom', message: (error as Error).message, input: value });
        return false;
      }
    }),
  ),
});

/** Variables whose values never appear in a message or a log. */
const SECRET_VARIABLES = new Set(['SECRET', 'SMTP_URL']);

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
