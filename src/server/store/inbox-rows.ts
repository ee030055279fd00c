/**
 * An application row as the inbox reads it, and where and how an export reads
 * its pages. Plain functions and types: the export's thread loads this module too.
 */
import type { CompiledQuery } from 'kysely';
import { APPLICATION_STATUSES, type ApplicationStatus } from '../../shared/admin';
import type { Database } from './schema';

/** An application as the inbox reads it from the store. */
export interface InboxRow {
  id: string;
  pageId: string;
  receivedAt: string;
  status: ApplicationStatus;
  note: string;
  firstName: string;
  lastName: string;
  /** Lower-cased. */
  email: string;
  countryCode: string;
  payload: unknown;
  /**
   * The version of a stored page it answered (`applications.page_version`); absent for
   * the default page's applications and rows stored before versions.
   */
  pageVersion?: number;
  /** Its tags' names, by name: filled in for an export only. */
  tags?: string[];
  /** The consents withdrawn from it, purpose → when (ISO-8601 UTC): filled in for an export only (requirements §21). */
  withdrawnConsents?: Record<string, string>;
  /** The earliest other application on the same page with the same e-mail or handle, received before this one. */
  duplicateOf?: string;
  /**
   * Set when the stored payload is not readable JSON: `payload` is then rebuilt from the
   * row's indexed columns (names, e-mail, country), so the row is listed and exported with what can be read.
   */
  unreadable?: true;
}

/** The `applications` columns an {@link InboxRow} is read from (and an export reads, in this order). */
export const INBOX_COLUMNS = [
  'id',
  'page_id',
  'received_at',
  'status',
  'note',
  'first_name',
  'last_name',
  'email',
  'country_code',
  'payload',
  'page_version',
] as const;

/** The `applications` columns the inbox reads ({@link INBOX_COLUMNS}). */
export type ApplicationRow = Pick<Database['applications'], (typeof INBOX_COLUMNS)[number]>;

/** An {@link ApplicationRow} from its values in {@link INBOX_COLUMNS} order (a SQLite row read as an array). */
export function applicationRowFromValues(values: readonly unknown[]): ApplicationRow {
  const [id, page_id, received_at, status, note, first_name, last_name, email, country_code, payload, page_version] = values as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    number | string | null,
  ];
  return {
    id,
    page_id,
    received_at,
    status,
    note,
    first_name,
    last_name,
    email,
    country_code,
    payload,
    page_version: page_version === null || page_version === undefined ? null : Number(page_version),
  };
}

/**
 * A stored payload as a JSON object, or undefined when it cannot be read. A leading byte-order mark (kept
 * by servers before decision 008) is skipped: such a row reads back whole.
 */
function readPayload(text: string): unknown {
  try {
    const payload = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
    // Only an object is an application: `null` or `[]` is as unreadable as broken text.
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A stored status as the inbox reads it: one this server does not know (written by hand, or by a
 * later version) reads as `new`, so the inbox never fails a page over one row and its
 * answers keep their schema.
 */
export function readStatus(value: string): ApplicationStatus {
  return (APPLICATION_STATUSES as readonly string[]).includes(value) ? (value as ApplicationStatus) : 'new';
}

/** The inbox never trusts its own rows: an unreadable payload marks one row, never fails a page. */
export function toInboxRow(row: ApplicationRow): InboxRow {
  const payload = readPayload(row.payload);
  // An object literal rather than spreads: an export builds 100 000 of these at a time.
  const inbox: InboxRow = {
    id: row.id,
    pageId: row.page_id,
    receivedAt: row.received_at,
    status: readStatus(row.status),
    note: row.note,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    countryCode: row.country_code,
    // An unreadable row shows what its indexed columns still say.
    payload: payload ?? {
      personalInfo: {
        firstName: row.first_name,
        lastName: row.last_name,
        emailAddress: row.email,
        ...(row.country_code ? { countryCode: row.country_code } : {}),
      },
    },
  };
  if (payload === undefined) inbox.unreadable = true;
  // PostgreSQL's driver may read an integer as text: a number either way.
  if (row.page_version !== null && row.page_version !== undefined) inbox.pageVersion = Number(row.page_version);
  return inbox;
}

/**
 * Runs one page query of an export and resolves with its rows (see {@link ApplicationRepository.exportApplications}).
 * SQLite's reads it with a prepared statement on a read-only connection of its own.
 */
export type ExportPageReader = (query: CompiledQuery<ApplicationRow>) => Promise<ApplicationRow[]>;

/**
 * Where an export's thread opens its own connection (docs/decisions/014): a SQLite file
 * (opened read-only), or a PostgreSQL URL with the store's query timeout in ms. Plain data: it is
 * sent to the thread as it is.
 */
export type ExportLocation = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string; queryTimeoutMs?: number | undefined };

/** What {@link ApplicationRepository.exportSource} tells an export run in a thread of its own. */
export interface ExportSource {
  location: ExportLocation;
  /**
   * Resolves when the next page may be read: at once, or (SQLite) once an erasure's scrub, which
   * needs every connection of the file idle, is done. Never rejects.
   */
  whenReadable(): Promise<void>;
}

/** How an export reads its pages (see {@link ApplicationRepository.exportApplications}). */
export interface ExportPages {
  /** Runs a page query (default: through Kysely, as every other query). */
  read?: ExportPageReader;
  /**
   * Rows per page query, each page handed over in batches of the size asked for (default: one
   * batch a query). A reader that waits for a server (PostgreSQL) takes larger pages: one round
   * trip per 500 rows made an export wait for the database more than it worked. A synchronous
   * reader (SQLite) keeps pages of one batch, since it holds the event loop for a whole page.
   */
  rowsPerQuery?: number;
  /** What {@link ApplicationRepository.exportSource} answers (default: none, exports run on the caller's thread). */
  source?: ExportSource | undefined;
}
