import { Readable } from 'node:stream';
import type { InboxRow } from '../store/inbox-rows';
import { consentPurposeOf, withdrawnAnswer } from '../consents';
import { answerReader, type AnswerColumn } from './answers';

/** Cells a spreadsheet would read as a formula (OWASP CSV injection), neutralised with a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV cell that a spreadsheet shows as text, never runs: `=1+1` → `'=1+1`. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** What makes a cell need quotes: the separator, the quote, and a line break of any kind. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell as RFC 4180 §2.6–2.7 writes it: in double quotes, its own quotes doubled, when it
 * holds a comma, a quote, CR or LF — a bare CR or LF too, which every spreadsheet and CSV reader
 * takes as the end of a row — and as it is otherwise. The same text csv-stringify
 * writes with `quoted_match: /[\r\n]/` (`csv.test.ts` checks it), at a fifth of its cost per row:
 * csv-stringify alone took longer than the database's own dump of the rows.
 */
export function csvCell(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A cell of the export: formula neutralised, then quoted as needed. */
const exportCell = (value: string) => (value === '' ? '' : csvCell(neutralizeFormula(value)));

/** Rows per batch of an export: 1 to 3 ms of reading and formatting here, then the event loop takes its turn. */
export const EXPORT_BATCH_ROWS = 200;

/**
 * The CSV export of applications (decision 011 for its speed): UTF-8 with a byte-order mark
 * (Excel and Numbers then read it as UTF-8), CRLF line ends, a header row (`ID`, `Page`,
 * `Received`, `Status`, `Note`, `Tags` — the names joined with `, ` — then each answer
 * column's label), then one row per application
 * with its answers (`answerReader`; a consent withdrawn since: `Withdrawn` and when), every cell
 * formula-neutralised and quoted as needed.
 *
 * A stream with backpressure: a batch is asked of `batches` only when the reader wants more, and
 * each batch is formatted in a turn of the event loop of its own (`setImmediate`), so requests
 * that arrived meanwhile are served between two batches. Destroying the stream (the client went
 * away) stops the iteration; an error from `batches` destroys the stream with it (the response is
 * then cut short rather than ended as if complete).
 * @param batches - the rows, in export order (`ApplicationRepository.exportApplications`).
 * @param columns - the answer columns, in order.
 * @param options.head - false: the rows only, without the byte-order mark and the header row
 *   ({@link applicationsCsvHead}), for an export whose head was sent by another thread.
 * @param options.strings - true: the stream gives the text as strings, not UTF-8 Buffers (an
 *   export's thread posts strings to the main thread, see export-threads.ts).
 * @param options.pageVersion - true: a `Page version` column after `Page` (the version
 *   of a stored page each application answered, empty for the default page's).
 */
export function applicationsCsv(
  batches: AsyncIterable<InboxRow[]>,
  columns: readonly AnswerColumn[],
  options: { head?: boolean; strings?: boolean; pageVersion?: boolean } = {},
): Readable {
  const readers = columns.map((column) => {
    const read = answerReader(column.key);
    // A consent withdrawn since (requirements §21) says so, with when, in place of the Yes it was given with.
    const purpose = consentPurposeOf(column.key);
    return purpose === undefined
      ? (row: InboxRow) => read(row.payload)
      : (row: InboxRow) => {
          const withdrawn = row.withdrawnConsents?.[purpose];
          return withdrawn ? withdrawnAnswer(withdrawn) : read(row.payload);
        };
  });
  const withVersion = options.pageVersion === true;
  const format = (rows: InboxRow[]) => {
    let text = '';
    for (const row of rows) {
      text += `${exportCell(row.id)},${exportCell(row.pageId)},${withVersion ? `${row.pageVersion ?? ''},` : ''}${exportCell(row.receivedAt)},${exportCell(row.status)},${exportCell(row.note)},${exportCell(row.tags?.join(', ') ?? '')}`;
      for (const read of readers) text += `,${exportCell(read(row))}`;
      text += '\r\n';
    }
    return text;
  };
  return new BatchedText(batches, options.head === false ? '' : applicationsCsvHead(columns, { pageVersion: withVersion }), format, options.strings === true);
}

/**
 * What an export of {@link applicationsCsv} starts with: the byte-order mark and the header row
 * (`ID`, `Page`, `Page version` when asked, `Received`, `Status`, `Note`, `Tags`, then each answer
 * column's label), CRLF-ended. For an export whose rows are formatted elsewhere (in a thread of its
 * own), which then calls {@link applicationsCsv} with `head: false`.
 * @param columns - the answer columns, in order.
 * @param options.pageVersion - true: the `Page version` column (see {@link applicationsCsv}).
 */
export function applicationsCsvHead(columns: readonly AnswerColumn[], options: { pageVersion?: boolean } = {}): string {
  const header = [
    'ID',
    'Page',
    ...(options.pageVersion === true ? ['Page version'] : []),
    'Received',
    'Status',
    'Note',
    'Tags',
    ...columns.map((column) => column.label),
  ]
    .map(exportCell)
    .join(',');
  return `\uFEFF${header}\r\n`;
}

/** A readable of `head` then each batch's text, one batch per turn of the event loop (see {@link applicationsCsv}). */
class BatchedText<T> extends Readable {
  private readonly batches: AsyncIterator<T>;
  private headSent = false;

  constructor(
    batches: AsyncIterable<T>,
    private readonly head: string,
    private readonly format: (batch: T) => string,
    strings: boolean,
  ) {
    // As strings, the text pushed stays as it is; otherwise it becomes UTF-8 Buffers.
    super(strings ? { encoding: 'utf8' } : {});
    this.batches = batches[Symbol.asyncIterator]();
  }

  override _read() {
    if (!this.headSent) {
      this.headSent = true;
      if (this.head !== '') {
        this.push(this.head);
        return;
      }
    }
    setImmediate(() => void this.next());
  }

  private async next() {
    try {
      const { done, value } = await this.batches.next();
      if (this.destroyed) return;
      this.push(done ? null : this.format(value));
    } catch (error) {
      this.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    // Ends the store's iteration: no further page is read.
    const ended = this.batches.return?.();
    if (!ended) return callback(error);
    ended.then(
      () => callback(error),
      () => callback(error),
    );
  }
}
