/**
 * The brand's inbox (issue 7, DESIGN §8): the admin API's request schemas,
 * its answer shapes and its limits, shared by the server and the admin front
 * end so both read the same contract.
 */
import { z } from './zod';
import { PLATFORM_NAMES, type PlatformName } from './platforms';
import { DEFAULT_MESSAGES } from './messages';
import { ISO_ALPHA2_PATTERN, MAX_EMAIL_LENGTH, isPlainLongText, isPlainText } from './rules';

/** An application's review status (DESIGN §8); every application starts `new`. */
export const APPLICATION_STATUSES = ['new', 'shortlisted', 'accepted', 'declined'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** What a user may do: `editor` reviews and decides; `viewer` reads and exports only. */
export const ADMIN_ROLES = ['editor', 'viewer'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** Shortest accepted password, in characters (DESIGN §8). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longest accepted password, in characters (bounds the KDF's input). */
export const MAX_PASSWORD_LENGTH = 1024;
/** Longest review note, in characters. */
export const MAX_NOTE_LENGTH = 2000;
/** Default and largest page of the application list. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
/** Most applications one bulk status change may touch. */
export const MAX_BULK_IDS = 500;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day that exists: `2026-02-30` is not one (Date would roll it over to March). */
const isDay = (value: string) => {
  if (!DAY_PATTERN.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
};
const day = z.string().check(z.refine(isDay, 'Use a date as YYYY-MM-DD'));
/**
 * Text the inbox is sent, at most `max` characters, holding no control character, lone surrogate
 * or noncharacter (issue 11: a NUL in a search failed on PostgreSQL, a lone surrogate was stored
 * as invalid UTF-8 by SQLite).
 */
const text = (max: number) => z.string().check(z.maxLength(max), z.refine(isPlainText, DEFAULT_MESSAGES.plainText));

/** `POST /api/admin/session` body. */
export const SignInSchema = z.strictObject({
  email: text(MAX_EMAIL_LENGTH).check(z.minLength(1)),
  password: z.string().check(z.minLength(1), z.maxLength(MAX_PASSWORD_LENGTH)),
});

/**
 * The filters of `GET /api/admin/applications` and `applications.csv` (DESIGN §8), from the query
 * string. `from`/`to` are UTC days, both inclusive; `q` searches name, e-mail and platform handles.
 */
export const ApplicationFilterSchema = z.object({
  q: z.optional(text(200)),
  status: z.optional(z.enum(APPLICATION_STATUSES)),
  pageId: z.optional(text(200)),
  platform: z.optional(z.enum(PLATFORM_NAMES)),
  country: z.optional(z.string().check(z.regex(ISO_ALPHA2_PATTERN, 'Use an ISO 3166-1 alpha-2 code'))),
  from: z.optional(day),
  to: z.optional(day),
});
export type ApplicationFilter = z.output<typeof ApplicationFilterSchema>;

/** The list's query: the filters plus keyset pagination. */
export const ApplicationListQuerySchema = z.extend(ApplicationFilterSchema, {
  cursor: z.optional(text(200)),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_PAGE_SIZE)), DEFAULT_PAGE_SIZE),
});
export type ApplicationListQuery = z.output<typeof ApplicationListQuerySchema>;

/** `PATCH /api/admin/applications/{id}` body: a new status, a new note, or both. */
export const ApplicationPatchSchema = z.strictObject({
  status: z.optional(z.enum(APPLICATION_STATUSES)),
  // A note may hold tab and line breaks, as a survey answer may.
  note: z.optional(z.string().check(z.maxLength(MAX_NOTE_LENGTH), z.refine(isPlainLongText, DEFAULT_MESSAGES.plainText))),
});
export type ApplicationPatch = z.output<typeof ApplicationPatchSchema>;

/** `PATCH /api/admin/applications` body: one status for a selection (bulk change). */
export const BulkStatusSchema = z.strictObject({
  ids: z.array(text(64)).check(z.minLength(1), z.maxLength(MAX_BULK_IDS)),
  status: z.enum(APPLICATION_STATUSES),
});

/** The funnel events the wizard reports to the server (anonymous counts, no personal data). */
export const FUNNEL_EVENTS = ['stepReached', 'submitted', 'signInClicked'] as const;
export type FunnelEvent = (typeof FUNNEL_EVENTS)[number];

/** `POST /api/funnel/{pageId}` body, sent with `navigator.sendBeacon`. `step` counts from 0. */
export const FunnelBeaconSchema = z.strictObject({
  event: z.enum(FUNNEL_EVENTS),
  step: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(50))),
});
export type FunnelBeacon = z.output<typeof FunnelBeaconSchema>;

/** `GET /api/admin/funnel` query: a page and a range of UTC days (default: the last 30). */
export const FunnelQuerySchema = z.object({
  pageId: z.optional(text(200)),
  from: z.optional(day),
  to: z.optional(day),
});

/**
 * An application's platforms as its payload names them (DESIGN §6), keyed by platform name:
 * `{ instagram: { handle, followers? } , website: { url, monthlyTraffic? } }` — LinkedIn, Threads
 * and Reddit (sent in `fields`) included.
 */
export type PlatformAnswers = Partial<Record<PlatformName, Record<string, string>>>;

/** One platform of an application with its public profile's address (the detail view). */
export interface ApplicationPlatform {
  platform: PlatformName;
  /** The handle, or for `website` the URL. */
  handle: string;
  /** Followers (or monthly traffic for `website`), digits, when given. */
  followers?: string;
  /** The public profile's address (instagram.com/handle …). */
  profileUrl: string;
}

/** One row of `GET /api/admin/applications` (DESIGN §8). */
export interface ApplicationListItem {
  id: string;
  pageId: string;
  /** ISO-8601 UTC. */
  receivedAt: string;
  status: ApplicationStatus;
  firstName: string;
  lastName: string;
  emailAddress: string;
  /** ISO 3166-1 alpha-2, when the page asked for it. */
  countryCode?: string;
  platforms: PlatformAnswers;
  /** The earliest other application on the same page with the same e-mail or platform handle. */
  duplicateOf?: string;
  /**
   * Present when the stored payload cannot be read back (issue 11): the row is shown from its
   * indexed columns (name, e-mail, country), its answers and platforms are empty.
   */
  unreadable?: true;
}

/** `GET /api/admin/applications` answer. */
export interface ApplicationList {
  items: ApplicationListItem[];
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/** One audit entry (DESIGN §8); never carries an applicant's personal data. */
export interface AuditEntry {
  /** ISO-8601 UTC. */
  at: string;
  /** The e-mail of the user who acted. */
  actor: string;
  action: 'status' | 'note' | 'erased';
  from?: string;
  to?: string;
}

/** An answer with its question label from the page's configuration. */
export interface LabelledAnswer {
  /** The payload path: `personalInfo.firstName`, `fields.howOften`. */
  key: string;
  label: string;
  value: string;
}

/** `GET /api/admin/applications/{id}` answer. */
export interface ApplicationDetail extends ApplicationListItem {
  note: string;
  /** The platforms in SPEC §3 order, each with its profile link (instagram.com/handle …). */
  profiles: ApplicationPlatform[];
  payload: unknown;
  answers: LabelledAnswer[];
  /** Other applications with the same e-mail received before this one, newest first. */
  earlierSubmissions: { id: string; pageId: string; receivedAt: string; status: ApplicationStatus }[];
  audit: AuditEntry[];
}

/** `GET /api/admin/session` answer: who is signed in. */
export interface AdminSessionInfo {
  email: string;
  role: AdminRole;
}

/** `GET /api/admin/funnel` answer. */
export interface FunnelReport {
  pageId: string;
  /** Step names of the page, in order. */
  steps: string[];
  /** One row per UTC day in the range, oldest first. */
  days: { day: string; reached: number[]; submitted: number; signInClicked: number }[];
  totals: { reached: number[]; submitted: number; signInClicked: number };
  /** Share of the applicants reaching step i who reached step i + 1 (then: who submitted), 0–1. */
  conversion: { from: string; to: string; rate: number | null }[];
}
