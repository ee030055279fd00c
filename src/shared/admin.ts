/**
 * The brand's inbox (requirements §17): the admin API's request schemas,
 * its answer shapes and its limits, shared by the server and the admin front
 * end so both read the same contract.
 */
import { z } from './zod';
import { ConsentRecordSchema } from './consents';
import { PLATFORM_NAMES, type PlatformName } from './platforms';
import { DEFAULT_MESSAGES } from './messages';
import { ISO_ALPHA2_PATTERN, MAX_EMAIL_LENGTH, hasInvisibleCharacters, isPlainLongText, isPlainText } from './rules';

/** An application's review status (requirements §17); every application starts `new`. */
export const APPLICATION_STATUSES = ['new', 'shortlisted', 'accepted', 'declined'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/**
 * What a user may do (docs/inbox.md, "The team"): `owner` everything, the team and integrations
 * included; `editor` pages, decisions and exports; `viewer` reads only.
 */
export const ADMIN_ROLES = ['owner', 'editor', 'viewer'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** Shortest accepted password, in characters (requirements §17). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longest accepted password, in characters (bounds the KDF's input). */
export const MAX_PASSWORD_LENGTH = 1024;
/** Longest review note, in characters: the single `note` of `PATCH`, and each note of a thread. */
export const MAX_NOTE_LENGTH = 2000;
/** Longest tag name, in characters. */
export const MAX_TAG_NAME_LENGTH = 40;
/** Most tags the team may define: a `POST /tags` past it answers 409. */
export const MAX_TAGS = 200;
/** Most tags one application may carry: the length limit of `PUT …/tags`'s `tagIds`. */
export const MAX_TAGS_PER_APPLICATION = 20;
/** Most notes one application's thread may hold: a `POST …/notes` past it answers 409. */
export const MAX_NOTES_PER_APPLICATION = 500;
/** Default and largest page of the application list. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
/** Most applications one bulk status change, or one bulk tag change, may touch. */
export const MAX_BULK_IDS = 500;
/** Most tags one bulk tag change may add and remove together: 500 applications × 10 tags stay one bounded transaction. */
export const MAX_BULK_TAGS = 10;

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
 * or noncharacter (a NUL in a search failed on PostgreSQL, a lone surrogate was stored
 * as invalid UTF-8 by SQLite).
 */
const text = (max: number) => z.string().check(z.maxLength(max), z.refine(isPlainText, DEFAULT_MESSAGES.plainText));

/** `POST /api/admin/session` body. */
export const SignInSchema = z.strictObject({
  email: text(MAX_EMAIL_LENGTH).check(z.minLength(1)),
  password: z.string().check(z.minLength(1), z.maxLength(MAX_PASSWORD_LENGTH)),
});

/** Most answer filters (`answer` and `contains` together, each counted once) one view may hold. */
export const MAX_ANSWER_FILTERS = 50;
/**
 * Most `contains` texts one view may hold, each counted once: each reads its question's answers
 * on every list, count and summary (the inbox offers one per free-text question).
 */
export const MAX_CONTAINS_FILTERS = 10;
/** A survey answer's key under the payload's `fields` (`howFamiliar`, `campaign.value`), as filters name it. */
export const ANSWER_KEY_PATTERN = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/** `key:value`, split at the first colon: the key a survey answer's, the value any plain text. */
const answerTerm = text(400).check(
  z.refine((term) => {
    const colon = term.indexOf(':');
    return colon > 0 && colon <= 100 && ANSWER_KEY_PATTERN.test(term.slice(0, colon)) && term.length > colon + 1;
  }, "Use key:value, the key an answer's (howFamiliar:Super-Fan)"),
);
/** `key:text` of a `contains` filter: as {@link answerTerm}, its text not blank (a blank text would match every answer). */
const containsTerm = answerTerm.check(z.refine((term) => term.slice(term.indexOf(':') + 1).trim().length > 0, 'Give the text to look for after the colon'));
/**
 * One query parameter given once or repeated (`?answer=a&answer=b`), read as a list of `term`s,
 * each once (a term given twice filters as once), at most `max`.
 */
const repeated = (term: typeof answerTerm, max: number) =>
  z.pipe(
    z.transform((value: unknown) => [...new Set(value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value])]),
    z.array(term).check(z.maxLength(max)),
  );

/** `answer` and `contains` together hold at most {@link MAX_ANSWER_FILTERS} terms. */
const answerFiltersWithinLimit = z.refine<{ answer?: readonly string[] | undefined; contains?: readonly string[] | undefined }>(
  (filter) => (filter.answer?.length ?? 0) + (filter.contains?.length ?? 0) <= MAX_ANSWER_FILTERS,
  { message: `At most ${MAX_ANSWER_FILTERS} answer and contains filters together`, path: ['answer'] },
);

/**
 * An answer filter's term (`howFamiliar:Super-Fan`) as its key and value.
 * @returns undefined for a term without a colon (the schema refuses those).
 */
export function splitAnswerTerm(term: string): { key: string; value: string } | undefined {
  const colon = term.indexOf(':');
  return colon > 0 ? { key: term.slice(0, colon), value: term.slice(colon + 1) } : undefined;
}

/** The list's sorts: received, name, country, total followers and the largest platform's followers. */
export const APPLICATION_SORTS = ['received', 'name', 'country', 'followers', 'topPlatform'] as const;
export type ApplicationSort = (typeof APPLICATION_SORTS)[number];
/** A sort's direction; every sort breaks ties by time received, then id, in the same direction. */
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * The filters of `GET /api/admin/applications` and `applications.csv` (requirements §17), from the query
 * string. `from`/`to` are UTC days, both inclusive; `q` searches name, e-mail and platform handles.
 * Answer filters: `answer=key:value`, repeated, matches applications whose answer to
 * `key` is one of the values given for it (one option of a multi-select answer is enough), every
 * key given having to match; `contains=key:text` matches a free-text answer holding `text`
 * (case-insensitive).
 */
const applicationFilterFields = z.object({
  q: z.optional(text(200)),
  status: z.optional(z.enum(APPLICATION_STATUSES)),
  pageId: z.optional(text(200)),
  platform: z.optional(z.enum(PLATFORM_NAMES)),
  country: z.optional(z.string().check(z.regex(ISO_ALPHA2_PATTERN, 'Use an ISO 3166-1 alpha-2 code'))),
  from: z.optional(day),
  to: z.optional(day),
  answer: z.optional(repeated(answerTerm, MAX_ANSWER_FILTERS)),
  contains: z.optional(repeated(containsTerm, MAX_CONTAINS_FILTERS)),
  /** A tag's id: only the applications carrying it. An unknown id matches none. */
  tag: z.optional(text(64)),
});
/** See {@link applicationFilterFields}: its fields, `answer` and `contains` within {@link MAX_ANSWER_FILTERS} together. */
export const ApplicationFilterSchema = applicationFilterFields.check(answerFiltersWithinLimit);
export type ApplicationFilter = z.output<typeof ApplicationFilterSchema>;

/** The list's query: the filters, the sort (default: received, newest first) and keyset pagination. */
const applicationViewFields = z.extend(applicationFilterFields, {
  sort: z._default(z.enum(APPLICATION_SORTS), 'received'),
  dir: z._default(z.enum(SORT_DIRECTIONS), 'desc'),
});
export const ApplicationListQuerySchema = z
  .extend(applicationViewFields, {
    cursor: z.optional(text(200)),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_PAGE_SIZE)), DEFAULT_PAGE_SIZE),
  })
  .check(answerFiltersWithinLimit);
export type ApplicationListQuery = z.output<typeof ApplicationListQuerySchema>;

/** Longest saved view name, in characters; most saved views per user. */
export const MAX_VIEW_NAME_LENGTH = 80;
export const MAX_SAVED_VIEWS = 50;
/** Longest saved view query string, in characters. */
export const MAX_VIEW_QUERY_LENGTH = 4000;

/** A saved view: a user's name for a list's filters and sort, kept as its query string (`status=new&sort=followers&dir=desc`). */
export const SavedViewSchema = z.object({ id: z.string(), name: z.string(), query: z.string(), createdAt: z.string() });
export type SavedView = z.output<typeof SavedViewSchema>;

/** `POST /api/admin/views` body: a name and the list's query string (without `?`); a name saved before is replaced. */
export const SaveViewSchema = z.strictObject({
  name: text(MAX_VIEW_NAME_LENGTH).check(z.refine((name) => name.trim().length > 0, 'Give the view a name')),
  query: text(MAX_VIEW_QUERY_LENGTH),
});

/** `GET /api/admin/applications/{id}/neighbours`: the view (filters and sort) to move through. */
export const NeighboursQuerySchema = applicationViewFields.check(answerFiltersWithinLimit);

/** `GET /api/admin/applications/{id}/neighbours` answer: the applications before and after it in the view, when there are. */
export const NeighboursSchema = z.object({ previous: z.optional(z.string()), next: z.optional(z.string()) });
export type Neighbours = z.output<typeof NeighboursSchema>;

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

/**
 * The funnel events the wizard reports to the server (anonymous counts, no personal data):
 * `ageEnded` when the age screen ended the wizard (requirements §20: the only trace of such a visit).
 */
export const FUNNEL_EVENTS = ['stepReached', 'submitted', 'signInClicked', 'ageEnded'] as const;
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
 * length just before it.
 */
export const FunnelQuerySchema = z.object({
  pageId: z.optional(text(200)),
  from: z.optional(day),
  to: z.optional(day),
  compare: z.optional(z.enum(['previous'])),
});

/**
 * An application's platforms as its payload names them (requirements §15), keyed by platform name:
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

/** A tag the team defined. `createdAt` ISO-8601 UTC. */
export const TagSchema = z.object({ id: z.string(), name: z.string(), createdAt: z.string() });
export type Tag = z.output<typeof TagSchema>;

/** One row of `GET /api/admin/applications` (requirements §17). Times are ISO-8601 UTC. */
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
  /** Followers summed over the platforms, website's traffic aside. */
  totalFollowers: z.number(),
  /** The platform with the most followers, when any has followers. */
  topPlatform: z.optional(z.object({ platform: z.enum(PLATFORM_NAMES), followers: z.number() })),
  /** The earliest other application on the same page with the same e-mail or platform handle. */
  duplicateOf: z.optional(z.string()),
  /**
   * Present when the stored payload cannot be read back: the row is shown from its
   * indexed columns (name, e-mail, country), its answers and platforms are empty.
   */
  unreadable: z.optional(z.literal(true)),
  /** The team's tags on it, by name. */
  tags: z.array(TagSchema),
});
export type ApplicationListItem = z.output<typeof ApplicationListItemSchema>;

/** `GET /api/admin/applications` answer; `nextCursor` (absent on the last page) asks for the next page. */
export const ApplicationListSchema = z.object({
  items: z.array(ApplicationListItemSchema),
  nextCursor: z.optional(z.string()),
});
export type ApplicationList = z.output<typeof ApplicationListSchema>;

/**
 * `GET /api/admin/applications/counts`: how many applications the list's filters
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

/** What an audit entry records (see {@link AuditEntrySchema}). */
export const AUDIT_ACTIONS = [
  'status',
  'note',
  'erased',
  'note-added',
  'note-edited',
  'note-deleted',
  'tagged',
  'untagged',
  'exported',
  'guardian-consented',
  'consent-withdrawn',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One audit entry (requirements §17); never carries an applicant's personal data. `actor`: the user's e-mail. */
export const AuditEntrySchema = z.object({
  at: z.string(),
  actor: z.string(),
  /**
   * `status` (from, to), `note` (the single note of `PATCH` changed), `erased`;
   * `note-added`, `note-edited`, `note-deleted` (a note of the thread: never its text), `tagged`
   * and `untagged` (`to`: the tag's name); `exported` (in a person's data, downloaded: docs/privacy.md).
   */
  action: z.enum(AUDIT_ACTIONS),
  from: z.optional(z.string()),
  to: z.optional(z.string()),
});
export type AuditEntry = z.output<typeof AuditEntrySchema>;

/** An answer with its question label from the page's configuration; `key` is the payload path (`fields.howOften`). */
/**
 * One answer as the detail view shows it: its payload key, the question's label, the value stored,
 * and, for a choice whose name the applicant saw differs from that value (a select's option name,
 * `Oui` for `Yes` on a French page), that name as plain text.
 */
export const LabelledAnswerSchema = z.object({ key: z.string(), label: z.string(), value: z.string(), text: z.optional(z.string()) });
export type LabelledAnswer = z.output<typeof LabelledAnswerSchema>;

/** Why an earlier application is the same creator's: the same e-mail, or the same handle on the same platform. */
export const CREATOR_MATCHES = ['email', 'handle'] as const;

/**
 * Another application of the same creator received before this one, as the detail view lists it:
 * the same e-mail (case aside) or the same platform handle (normalised as for
 * duplicates: case, `@`, a website's scheme and `www.` aside), on any page. `matchedBy` says which.
 */
export const EarlierSubmissionSchema = z.extend(
  z.pick(ApplicationListItemSchema, { id: true, pageId: true, receivedAt: true, status: true, firstName: true, lastName: true }),
  {
    matchedBy: z.array(z.enum(CREATOR_MATCHES)),
  },
);
export type EarlierSubmission = z.output<typeof EarlierSubmissionSchema>;

/**
 * A note's text: 1 to {@link MAX_NOTE_LENGTH} characters, not only spaces; tabs and line
 * breaks allowed, no other control character (isPlainLongText).
 */
const noteText = z.string().check(
  z.minLength(1),
  z.maxLength(MAX_NOTE_LENGTH),
  z.refine((value) => value.trim() !== '', 'Write something'),
  z.refine(isPlainLongText, DEFAULT_MESSAGES.plainText),
);

/** `POST /api/admin/applications/{id}/notes` and `PATCH …/notes/{noteId}` body. */
export const NoteBodySchema = z.strictObject({ text: noteText });
export type NoteBody = z.output<typeof NoteBodySchema>;

/**
 * One note of an application's thread. Times ISO-8601 UTC; `updatedAt` equals
 * `createdAt` until the note is edited. `author` is the e-mail of the user who wrote it (only they
 * may edit or delete it), or "(earlier note)" for the single note carried over from before the
 * thread (nobody's, so nobody edits it).
 */
export const NoteSchema = z.object({ id: z.string(), author: z.string(), createdAt: z.string(), updatedAt: z.string(), text: z.string() });
export type Note = z.output<typeof NoteSchema>;

/** `GET /api/admin/applications/{id}/notes` answer: the thread, oldest first. */
export const NoteListSchema = z.array(NoteSchema);

/** `GET /api/admin/tags` answer: every tag, by name (case aside). */
export const TagListSchema = z.array(TagSchema);

/**
 * A tag's name as it is kept and shown: in Unicode NFC (`Café` typed precomposed or as
 * `e` and a combining accent is one name), trimmed.
 */
export function normalizeTagName(name: string): string {
  // Every run of spaces (a no-break space too, Unicode's space separators) is one space: "gift\u00A0ing"
  // is "gift ing". Control characters (a tab) stay, for the plain-text rule to refuse.
  return name
    .normalize('NFC')
    .replace(/\p{Zs}+/gu, ' ')
    .trim();
}

/**
 * What a tag's name is unique by (the `name_key` column), and how the inbox finds a tag by a typed
 * name: {@link normalizeTagName}, lower-cased (then NFC again: a lower-case mapping may leave a
 * letter decomposed).
 */
export function tagNameKey(name: string): string {
  return normalizeTagName(name).toLowerCase().normalize('NFC');
}

/**
 * `POST /api/admin/tags` body: a name normalised ({@link normalizeTagName}: NFC, runs
 * of spaces as one, trimmed) with a letter, digit, symbol or punctuation mark, then of 1 to
 * {@link MAX_TAG_NAME_LENGTH} characters, without control characters (isPlainText) nor characters
 * that show nothing of their own (hasInvisibleCharacters: a zero-width space, a bidi override). A
 * name that exists whatever its case ({@link tagNameKey}) answers 200 with the existing tag.
 */
export const TagBodySchema = z.strictObject({
  name: z.string().check(
    z.overwrite(normalizeTagName),
    // A letter, digit, symbol or punctuation mark: a combining accent alone shows nothing of its own.
    z.refine((value) => /[\p{L}\p{N}\p{S}\p{P}]/u.test(value), 'Name the tag'),
    z.maxLength(MAX_TAG_NAME_LENGTH),
    z.refine(isPlainText, DEFAULT_MESSAGES.plainText),
    z.refine((value) => !hasInvisibleCharacters(value), DEFAULT_MESSAGES.plainText),
  ),
});
export type TagBody = z.output<typeof TagBodySchema>;

/** `PUT /api/admin/applications/{id}/tags` body: every tag the application carries from now on (none: `[]`). */
export const ApplicationTagsBodySchema = z.strictObject({ tagIds: z.array(text(64)).check(z.maxLength(MAX_TAGS_PER_APPLICATION)) });
export type ApplicationTagsBody = z.output<typeof ApplicationTagsBodySchema>;

/** `PUT /api/admin/applications/{id}/tags` answer: the application's tags, by name. */
export const ApplicationTagsSchema = z.array(TagSchema);

const tagIdList = z.optional(z.array(text(64)).check(z.maxLength(MAX_BULK_TAGS)));
/**
 * `POST /api/admin/applications/tags` body (bulk tagging): tags to add to and remove
 * from every application of `ids` (1 to {@link MAX_BULK_IDS}). At least one tag, at most
 * {@link MAX_BULK_TAGS} in `add` and `remove` together, and no tag in both.
 */
export const BulkTagsSchema = z
  .strictObject({
    ids: z.array(text(64)).check(z.minLength(1), z.maxLength(MAX_BULK_IDS)),
    add: tagIdList,
    remove: tagIdList,
  })
  .check(
    z.refine((body) => (body.add?.length ?? 0) + (body.remove?.length ?? 0) > 0, { message: 'Name a tag to add or remove', path: ['add'] }),
    z.refine((body) => (body.add?.length ?? 0) + (body.remove?.length ?? 0) <= MAX_BULK_TAGS, {
      message: `At most ${MAX_BULK_TAGS} tags at once`,
      path: ['add'],
    }),
    z.refine((body) => !(body.remove ?? []).some((id) => (body.add ?? []).includes(id)), {
      message: 'A tag cannot be added and removed at once',
      path: ['remove'],
    }),
  );
export type BulkTags = z.output<typeof BulkTagsSchema>;

/**
 * `POST /api/admin/applications/tags` answer: how many applications' tags changed (`updated`: those
 * that lacked a tag added or carried one removed), and the ids of no application (`notFound`:
 * erased meanwhile, or never existed), left alone.
 */
export const BulkTagsResultSchema = z.object({ updated: z.number(), notFound: z.array(z.string()) });
export type BulkTagsResult = z.output<typeof BulkTagsResultSchema>;

/** `PATCH /api/admin/applications/{id}` answer: the row with its note. */
export const PatchedApplicationSchema = z.extend(ApplicationListItemSchema, { note: z.string() });

/**
 * `GET /api/admin/applications/{id}` answer: the row, its note, its platforms in requirements §3 order
 * with profile links, its payload, labelled answers, the same creator's applications received
 * before it (newest first, {@link EarlierSubmissionSchema}), and its audit log; its
 * notes thread (oldest first), its tags (by name), and its phone in E.164 (`+447400123456`, ''
 * without one); `pageVersion`, the version of a stored page it answered, whose questions
 * label `answers` (absent for the default page's).
 */
export const ApplicationDetailSchema = z.extend(ApplicationListItemSchema, {
  note: z.string(),
  pageVersion: z.optional(z.number()),
  profiles: z.array(ApplicationPlatformSchema),
  payload: z.unknown(),
  answers: z.array(LabelledAnswerSchema),
  earlierSubmissions: z.array(EarlierSubmissionSchema),
  audit: z.array(AuditEntrySchema),
  /** When the retention policy erases it (ISO-8601 UTC; docs/privacy.md, "Retention"). */
  erasesAt: z.optional(z.string()),
  notes: z.array(NoteSchema),
  tags: z.array(TagSchema),
  /** Its consent records (requirements §21): as it was stored, then each withdrawal; empty on a page without consents. */
  consents: z.array(ConsentRecordSchema),
  phoneE164: z.string(),
});
export type ApplicationDetail = z.output<typeof ApplicationDetailSchema>;

/**
 * Where a session stands: `full` (signed in), `second-factor` (the password was right; a code or a
 * passkey is still to come), `enrol` (signed in only to set up a second factor the team requires).
 */
export const SESSION_STAGES = ['full', 'second-factor', 'enrol'] as const;
export type SessionStage = (typeof SESSION_STAGES)[number];

/** `GET /api/admin/session` answer: who is signed in, and where the session stands. */
export const AdminSessionInfoSchema = z.object({ email: z.string(), role: z.enum(ADMIN_ROLES), stage: z.enum(SESSION_STAGES) });
export type AdminSessionInfo = z.output<typeof AdminSessionInfoSchema>;

/**
 * A survey question the list can filter on and the summary counts: `key` under the
 * payload's `fields` (`howFamiliar`, `campaign.value`); `choice` questions (selects, yes/no,
 * checkboxes) and `multiple` ones (multi-selects) list their `options` (the stored value and the
 * label shown), `text` ones are searched with `contains`.
 */
export const FilterQuestionSchema = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(['choice', 'multiple', 'text']),
  options: z.optional(z.array(z.object({ value: z.string(), label: z.string() }))),
});
export type FilterQuestion = z.output<typeof FilterQuestionSchema>;

/** `GET /api/admin/pages` answer: the pages this server serves, each with the questions its list filters on. */
export const PageListSchema = z.array(z.object({ pageId: z.string(), title: z.string(), questions: z.array(FilterQuestionSchema) }));
export type PageList = z.output<typeof PageListSchema>;

/** `PATCH /api/admin/applications` answer: how many of the ids exist. */
export const BulkStatusResultSchema = z.object({ updated: z.number() });

const FunnelTotalsSchema = z.object({ reached: z.array(z.number()), submitted: z.number(), signInClicked: z.number(), ageEnded: z.number() });
const FunnelConversionSchema = z.array(z.object({ from: z.string(), to: z.string(), rate: z.nullable(z.number()) }));

/**
 * `GET /api/admin/funnel` answer: the page's step names in order; the range's first and last UTC
 * days (`from`, `to`, both included); one row per UTC day in the range, oldest first (`ageEnded`:
 * visits the age screen ended); totals; per
 * step the share (0–1) of the applicants reaching it who reached the next (`null` when none reached
 * it); and with `compare=previous`, `previous`: the same totals and conversion for the period of
 * the same length that ends the day before `from`.
 */
export const FunnelReportSchema = z.object({
  pageId: z.string(),
  from: z.string(),
  to: z.string(),
  steps: z.array(z.string()),
  days: z.array(z.object({ day: z.string(), reached: z.array(z.number()), submitted: z.number(), signInClicked: z.number(), ageEnded: z.number() })),
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
 * `GET /api/admin/summary` answer: for the list's filters on one page (the `pageId`
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
