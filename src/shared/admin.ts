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

/** Longest range of the funnel, in days (a year and a day: a leap year's whole). */
export const MAX_FUNNEL_DAYS = 366;

/**
 * `GET /api/admin/funnel` query: a page and a range of UTC days, both included (default: the last
 * 30 up to today; at most {@link MAX_FUNNEL_DAYS}); `compare=previous` adds the period of the same
 * length just before it (issue 16).
 */
export const FunnelQuerySchema = z.object({
  pageId: z.optional(text(200)),
  from: z.optional(day),
  to: z.optional(day),
  compare: z.optional(z.enum(['previous'])),
});

/**
 * An application's platforms as its payload names them (DESIGN §6), keyed by platform name:
 * `{ instagram: { handle, followers? } , website: { url, monthlyTraffic? } }` — LinkedIn, Threads
 * and Reddit (sent in `fields`) included.
 */
export const PlatformAnswersSchema = z.partialRecord(z.enum(PLATFORM_NAMES), z.record(z.string(), z.string()));
export type PlatformAnswers = Partial<Record<PlatformName, Record<string, string>>>;

/** One platform of an application with its public profile's address (the detail view). */
export const ApplicationPlatformSchema = z.object({
  platform: z.enum(PLATFORM_NAMES),
  /** The handle, or for `website` the URL. */
  handle: z.string(),
  /** Followers (or monthly traffic for `website`), digits, when given. */
  followers: z.optional(z.string()),
  /** The public profile's address (instagram.com/handle …). */
  profileUrl: z.string(),
});
export type ApplicationPlatform = z.output<typeof ApplicationPlatformSchema>;

/** One row of `GET /api/admin/applications` (DESIGN §8). Times are ISO-8601 UTC. */
export const ApplicationListItemSchema = z.object({
  id: z.string(),
  pageId: z.string(),
  receivedAt: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  firstName: z.string(),
  lastName: z.string(),
  emailAddress: z.string(),
  /** ISO 3166-1 alpha-2, when the page asked for it. */
  countryCode: z.optional(z.string()),
  platforms: PlatformAnswersSchema,
  /** The earliest other application on the same page with the same e-mail or platform handle. */
  duplicateOf: z.optional(z.string()),
  /**
   * Present when the stored payload cannot be read back (issue 11): the row is shown from its
   * indexed columns (name, e-mail, country), its answers and platforms are empty.
   */
  unreadable: z.optional(z.literal(true)),
});
export type ApplicationListItem = z.output<typeof ApplicationListItemSchema>;

/** `GET /api/admin/applications` answer; `nextCursor` (absent on the last page) asks for the next page. */
export const ApplicationListSchema = z.object({
  items: z.array(ApplicationListItemSchema),
  nextCursor: z.optional(z.string()),
});
export type ApplicationList = z.output<typeof ApplicationListSchema>;

/**
 * `GET /api/admin/applications/counts` (issue 16): how many applications the list's filters
 * match in each status, and in all (the status filter itself is left out, so each status tab can
 * show its count beside the others).
 */
export const ApplicationCountsSchema = z.object({
  new: z.number(),
  shortlisted: z.number(),
  accepted: z.number(),
  declined: z.number(),
  all: z.number(),
});
export type ApplicationCounts = z.output<typeof ApplicationCountsSchema>;

/** One audit entry (DESIGN §8); never carries an applicant's personal data. `actor`: the user's e-mail. */
export const AuditEntrySchema = z.object({
  at: z.string(),
  actor: z.string(),
  action: z.enum(['status', 'note', 'erased']),
  from: z.optional(z.string()),
  to: z.optional(z.string()),
});
export type AuditEntry = z.output<typeof AuditEntrySchema>;

/** An answer with its question label from the page's configuration; `key` is the payload path (`fields.howOften`). */
export const LabelledAnswerSchema = z.object({ key: z.string(), label: z.string(), value: z.string() });
export type LabelledAnswer = z.output<typeof LabelledAnswerSchema>;

/** Another application of the same e-mail, as the detail view lists it. */
export const EarlierSubmissionSchema = z.object({ id: z.string(), pageId: z.string(), receivedAt: z.string(), status: z.enum(APPLICATION_STATUSES) });

/** `PATCH /api/admin/applications/{id}` answer: the row with its note. */
export const PatchedApplicationSchema = z.extend(ApplicationListItemSchema, { note: z.string() });

/**
 * `GET /api/admin/applications/{id}` answer: the row, its note, its platforms in SPEC §3 order
 * with profile links, its payload, labelled answers, the other applications with the same e-mail
 * received before it (newest first), and its audit log.
 */
export const ApplicationDetailSchema = z.extend(ApplicationListItemSchema, {
  note: z.string(),
  profiles: z.array(ApplicationPlatformSchema),
  payload: z.unknown(),
  answers: z.array(LabelledAnswerSchema),
  earlierSubmissions: z.array(EarlierSubmissionSchema),
  audit: z.array(AuditEntrySchema),
});
export type ApplicationDetail = z.output<typeof ApplicationDetailSchema>;

/** `GET /api/admin/session` answer: who is signed in. */
export const AdminSessionInfoSchema = z.object({ email: z.string(), role: z.enum(ADMIN_ROLES) });
export type AdminSessionInfo = z.output<typeof AdminSessionInfoSchema>;

/** `GET /api/admin/pages` answer: the pages this server serves. */
export const PageListSchema = z.array(z.object({ pageId: z.string(), title: z.string() }));

/** `PATCH /api/admin/applications` answer: how many of the ids exist. */
export const BulkStatusResultSchema = z.object({ updated: z.number() });

const FunnelTotalsSchema = z.object({ reached: z.array(z.number()), submitted: z.number(), signInClicked: z.number() });
const FunnelConversionSchema = z.array(z.object({ from: z.string(), to: z.string(), rate: z.nullable(z.number()) }));

/**
 * `GET /api/admin/funnel` answer: the page's step names in order; the range's first and last UTC
 * days (`from`, `to`, both included); one row per UTC day in the range, oldest first; totals; per
 * step the share (0–1) of the applicants reaching it who reached the next (`null` when none reached
 * it); and with `compare=previous`, `previous`: the same totals and conversion for the period of
 * the same length that ends the day before `from` (issue 16).
 */
export const FunnelReportSchema = z.object({
  pageId: z.string(),
  from: z.string(),
  to: z.string(),
  steps: z.array(z.string()),
  days: z.array(z.object({ day: z.string(), reached: z.array(z.number()), submitted: z.number(), signInClicked: z.number() })),
  totals: FunnelTotalsSchema,
  conversion: FunnelConversionSchema,
  previous: z.optional(z.object({ from: z.string(), to: z.string(), totals: FunnelTotalsSchema, conversion: FunnelConversionSchema })),
});
export type FunnelReport = z.output<typeof FunnelReportSchema>;

/**
 * How a summarised question is answered: `choice` (one option: a single select, yes/no, a checkbox),
 * `multiple` (a multi-select: every option picked counts) or `text` (free text: only counted as answered).
 */
export const SUMMARY_QUESTION_KINDS = ['choice', 'multiple', 'text'] as const;

/** One option of a summarised question: the stored value, its label on the page, and how many applications chose it. */
export const SummaryOptionSchema = z.object({ value: z.string(), label: z.string(), count: z.number() });

/**
 * One question of `GET /api/admin/summary`: its payload key (`fields.howOften`), its label as the
 * inbox shows it, its kind, how many matched applications answered it, per option (every option of
 * the configuration, in its order, zero included; `[]` for free text) how many chose it, and `other`:
 * applications whose answer is no option of today's configuration (an option since removed).
 * For a multi-select an application counts once per option it picked, so the options add up to
 * more than `answered`.
 */
export const SummaryQuestionSchema = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(SUMMARY_QUESTION_KINDS),
  answered: z.number(),
  options: z.array(SummaryOptionSchema),
  other: z.number(),
});
export type SummaryQuestion = z.output<typeof SummaryQuestionSchema>;

/**
 * `GET /api/admin/summary` answer (issue 16): for the list's filters on one page (the `pageId`
 * filter, or the first page), how many applications match, per platform the page asks for (its
 * order) how many of them gave it, and per question with choices or free text of the page's
 * configuration (its order) the distribution of their answers.
 */
export const ApplicationSummarySchema = z.object({
  pageId: z.string(),
  matched: z.number(),
  platforms: z.array(z.object({ platform: z.enum(PLATFORM_NAMES), label: z.string(), count: z.number() })),
  questions: z.array(SummaryQuestionSchema),
});
export type ApplicationSummary = z.output<typeof ApplicationSummarySchema>;
