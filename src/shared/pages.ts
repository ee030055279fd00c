/**
 * Campaign pages (docs/decisions/021): the admin pages API's request schemas, answer
 * shapes and limits, shared by the server and the inbox's builder so both read one contract.
 */
import { PageListSchema } from './admin';
import { HOST_NAME_PATTERN } from './urls';
import { z } from './zod';

/** A page's status: `draft` until first published; `published` served; `closed` served as closed. */
export const PAGE_STATUSES = ['draft', 'published', 'closed'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

/**
 * A stored page's id: the `pageId` of `PUT /api/syncPage/{pageId}`, the pattern the
 * configuration's own `pageId` allows (`WizardConfigSchema` in config.ts).
 */
export const PAGE_ID_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** Largest draft configuration, in bytes of its JSON text (UTF-8): 256 KiB. */
export const MAX_DRAFT_BYTES = 256 * 1024;
/**
 * Deepest nesting of a draft's JSON: objects and arrays inside one another, the draft itself
 * the first level. A configuration goes some 12 levels deep (`steps[0].blocks[0].data.fields[0]
 * .options[0]`…); 32 leaves room, and keeps a draft far from what exhausts the stack of
 * `JSON.stringify` (some 5 000 levels) or of any reader of the draft.
 */
export const MAX_DRAFT_DEPTH = 32;

/**
 * Whether a JSON value nests at most `max` levels of objects and arrays (a scalar is 0, `{}` 1).
 * Walks without recursion and stops at the first value past `max`, so it is safe on any depth.
 */
export function jsonDepthAtMost(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [item, depth] = entry;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > max) return false;
    for (const nested of Object.values(item)) stack.push([nested, depth + 1]);
  }
  return true;
}

/**
 * Most different questions (answer keys) a stored page's versions may ask together: each is a
 * column of its CSV, a filter, a summary question, and a key bound in the summary's reads. A
 * publish that would pass it is refused (422 at `steps`); a form that asks something else
 * entirely is a new page. The default page asks 10.
 */
export const MAX_PAGE_QUESTIONS = 500;

/**
 * Where a page is seen as applicants see it, from the inbox's own origin: the default page at `/`,
 * any other at `/?page={id}` (every page answers there, whatever its host names; docs/pages.md).
 * @returns a path on the server's own origin; undefined for a page never published (nothing to see)
 *   or another server's default page (served at that server's address).
 */
export function livePagePath(page: {
  id: string;
  default?: boolean | undefined;
  elsewhere?: boolean | undefined;
  publishedVersion: number | null;
}): string | undefined {
  if (page.elsewhere) return undefined;
  if (page.default) return '/';
  return page.publishedVersion === null ? undefined : `/?page=${encodeURIComponent(page.id)}`;
}

/** Most host names one page may be served at. */
export const MAX_PAGE_HOSTS = 20;
/** Largest `maxApplications` a page may set. */
export const MAX_PAGE_APPLICATIONS = 1_000_000_000;

/** What a page's changes write to the audit log (who and when are the entry's own). */
export const PAGE_AUDIT_ACTIONS = ['page-created', 'page-draft', 'page-published', 'page-republished', 'page-updated', 'page-image'] as const;
export type PageAuditAction = (typeof PAGE_AUDIT_ACTIONS)[number];

/**
 * The subject an audit entry of a page is written under (`audit_log.application_id`): `page:` and
 * the page's id, never an application's id (those are UUIDs).
 */
export const pageAuditSubject = (pageId: string) => `page:${pageId}`;

const pageId = z.string().check(z.regex(PAGE_ID_PATTERN, 'expected 1-64 letters, digits, - or _'));

/**
 * Why `name` may not be a page's host name, or undefined when it may (the fifth outside attack,
 * F3: a page could take the deployment's own address): lower case, no port, no trailing dot;
 * labels of letters, digits and hyphens ({@link HOST_NAME_PATTERN}, RFC 1123); beyond it, a name of
 * two labels at least (`example.com`: a single label is a local machine's name or, as
 * `2130706433` or `0x7f000001`, an IPv4 address), whose last label is not a number (a browser
 * reads `127.1` or `10.0.0.0x1` as an IPv4 address, WHATWG URL §3.5), and not `localhost` or
 * under it (RFC 6761 §6.3). IPv6 literals have no place in the pattern (`[`, `:`). The inbox's
 * own host name is refused by the server, which knows it (`PATCH /api/admin/pages/{id}`).
 */
export function hostNameProblem(name: string): string | undefined {
  if (!HOST_NAME_PATTERN.test(name)) return 'expected a host name in lower case, without a port';
  const labels = name.split('.');
  if (labels.length < 2) return 'expected a full host name such as apply.brand.example, not a single label';
  if (/^(?:0x[0-9a-f]*|[0-9]+)$/.test(labels.at(-1)!)) return 'expected a host name, not an IP address';
  if (labels.at(-1) === 'localhost') return 'expected a public host name, not localhost';
  return undefined;
}
const host = z.string().check(
  z.superRefine((name, context) => {
    const problem = hostNameProblem(name);
    if (problem) context.addIssue({ code: 'custom', message: problem, input: name });
  }),
);

/**
 * The refusal of a closing time that is not after the opening time (`PATCH
 * /api/admin/pages/{id}`, at `closesAt`): by the schema when both are given, by the store against
 * the one already stored otherwise; the builder shows it at "Closes at".
 */
export const CLOSES_BEFORE_OPENING = 'Must be later than the opening time ("Opens at")';

/** An ISO-8601 instant with its offset (`2026-12-01T09:00:00Z`); the server stores it in UTC. */
const instant = z.iso.datetime({ offset: true, message: 'expected an ISO-8601 time such as 2026-12-01T09:00:00Z' });

/** `{id}` of a page's path. */
export const PageParams = z.object({ id: pageId });
/** `{id}` and `{n}` of a version's path. */
export const PageVersionParams = z.object({
  id: pageId,
  // Digits only (decision 021, the fifth outside attack, F8: `1e0`, `0x1` and ` 1` were version 1 too), 1 to 2^31 − 1.
  n: z.pipe(
    z.string().check(z.regex(/^[1-9][0-9]{0,9}$/, 'expected a version number: digits, from 1')),
    z.pipe(
      z.transform((digits: string) => Number(digits)),
      z.number().check(z.maximum(2_147_483_647)),
    ),
  ),
});

/** `POST /api/admin/pages`: a new draft copied from the default page (`from: 'default'`) or from another page's draft. */
export const CreatePageSchema = z.strictObject({ id: pageId, from: z.string().check(z.minLength(1), z.maxLength(64)) });

/**
 * `PUT /api/admin/pages/{id}/draft`: the draft as typed (it may fail the configuration's checks:
 * autosave keeps it), a JSON object of at most {@link MAX_DRAFT_BYTES} and {@link MAX_DRAFT_DEPTH}
 * levels deep (deeper is 400 naming `config`), and the revision it was edited from.
 */
export const SaveDraftSchema = z.strictObject({
  config: z
    .record(z.string(), z.unknown())
    .check(z.refine((config) => jsonDepthAtMost(config, MAX_DRAFT_DEPTH), `expected at most ${MAX_DRAFT_DEPTH} levels of nested objects and arrays`)),
  revision: z.number().check(z.int(), z.minimum(0)),
});

/** `POST /api/admin/pages/{id}/publish`: the revision of the draft the editor publishes. */
export const PublishPageSchema = z.strictObject({
  revision: z.number().check(z.int(), z.minimum(0)),
  /**
   * The editor's yes to erasing what a shorter retention puts past its time (docs/privacy.md): without
   * it, such a publication is refused with 409 and `erases`, how many applications would go.
   */
  eraseExpired: z.optional(z.boolean()),
});

/** `POST /api/admin/pages/{id}/versions/{n}/publish`: optionally, the yes to erasing what a shorter retention puts past its time (as {@link PublishPageSchema}'s). */
export const RepublishPageSchema = z.optional(z.nullable(z.strictObject({ eraseExpired: z.optional(z.boolean()) })));

/**
 * `PATCH /api/admin/pages/{id}`: what is given changes; `null` clears a date or the cap. `hosts`
 * replaces the page's host names (each at most once, each as {@link hostNameProblem} allows).
 * An empty change (`{}`) is refused: nothing to change.
 */
export const UpdatePageSchema = z
  .strictObject({
    status: z.optional(z.enum(['published', 'closed'])),
    hosts: z.optional(z.array(host).check(z.maxLength(MAX_PAGE_HOSTS))),
    opensAt: z.optional(z.nullable(instant)),
    closesAt: z.optional(z.nullable(instant)),
    maxApplications: z.optional(z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_PAGE_APPLICATIONS)))),
  })
  .check(
    z.superRefine((value, context) => {
      if (Object.keys(value).length === 0)
        context.addIssue({ code: 'custom', path: [], message: 'expected at least one of status, hosts, opensAt, closesAt, maxApplications' });
      if (value.opensAt && value.closesAt && Date.parse(value.closesAt) <= Date.parse(value.opensAt))
        context.addIssue({ code: 'custom', path: ['closesAt'], message: CLOSES_BEFORE_OPENING });
      value.hosts?.forEach((name, index) => {
        if (value.hosts!.indexOf(name) !== index) context.addIssue({ code: 'custom', path: ['hosts', index], message: 'This host name is listed twice' });
      });
    }),
  );
export type UpdatePage = z.output<typeof UpdatePageSchema>;

/**
 * A page in the list (`GET /api/admin/pages`): the default page first (`default: true`,
 * read-only), then the default pages other servers on the database read from their files
 * (`default` and `elsewhere`: read-only, served by that server, whose address is not known here),
 * then each stored page. It keeps the inbox's page list (`PageListSchema`: `pageId`,
 * `title`, the questions its list filters on, from the published version; none before one) and
 * adds the builder's columns.
 */
export const PageSummarySchema = z.object({
  ...PageListSchema.def.element.shape,
  id: z.string(),
  title: z.string(),
  status: z.enum(PAGE_STATUSES),
  publishedVersion: z.nullable(z.number()),
  revision: z.number(),
  hosts: z.array(z.string()),
  opensAt: z.nullable(z.string()),
  closesAt: z.nullable(z.string()),
  maxApplications: z.nullable(z.number()),
  /** Applications stored for the page, all statuses (the tallies). */
  applications: z.number(),
  default: z.optional(z.boolean()),
  /** A default page of another server on the database (docs/decisions/034): its live page is that server's. */
  elsewhere: z.optional(z.boolean()),
});
export type PageSummary = z.output<typeof PageSummarySchema>;

/** A published version: when and by whom. */
export const PageVersionInfoSchema = z.object({ version: z.number(), publishedAt: z.string(), publishedBy: z.string() });
export type PageVersionInfo = z.output<typeof PageVersionInfoSchema>;

/** `GET /api/admin/pages/{id}` (and `POST /pages`' 201): the summary, the draft and the versions. */
export const PageDetailSchema = z.object({
  ...PageSummarySchema.shape,
  draft: z.unknown(),
  updatedBy: z.string(),
  updatedAt: z.string(),
  versions: z.array(PageVersionInfoSchema),
});
export type PageDetail = z.output<typeof PageDetailSchema>;

/** `PUT …/draft`'s answer: the draft's new revision and when it was saved. */
export const DraftSavedSchema = z.object({ revision: z.number(), updatedAt: z.string() });
/** `POST …/publish`'s answer: the version made (201), or the version served already when the draft is what it serves (200). */
export const PublishedSchema = z.object({ version: z.number() });

/**
 * What `POST /api/admin/pages/{id}/images?kind=` makes: `cover`, a cover image (the files of its
 * `srcset`: `CoverImage` in config.ts); `logo`, the page's `logo`.
 */
export const PAGE_IMAGE_KINDS = ['cover', 'logo'] as const;
export type PageImageKind = (typeof PAGE_IMAGE_KINDS)[number];

/**
 * The media types an uploaded image is sent as (its `Content-Type`; another is 415). The server
 * judges the bytes, not the label: any of these five formats is taken whatever the label says, and
 * re-encoded to WebP.
 */
export const PAGE_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const;

/** Largest image upload, in bytes: 10 MiB (413 above). */
export const MAX_PAGE_IMAGE_BYTES = 10 * 1024 * 1024;

/** Largest image upload, in pixels (width × height): 40 megapixels (422 above), against decompression bombs. */
export const MAX_PAGE_IMAGE_PIXELS = 40_000_000;

/** The query of an upload: `?kind=cover` or `?kind=logo`. */
export const PageImageQuery = z.object({ kind: z.enum(PAGE_IMAGE_KINDS) });

/**
 * An upload's answer (201): for a cover, a `CoverImage` object, `{ src, srcset }` (`src` the
 * largest file; `srcset` every file with its width, `/uploads/…-480.webp 480w, …`); for a logo,
 * `{ src }`, the value of the configuration's `logo`. Paths under `/uploads/`, served for a year.
 */
export const PageImageSchema = z.object({ src: z.string(), srcset: z.optional(z.string()) });
export type PageImage = z.output<typeof PageImageSchema>;
