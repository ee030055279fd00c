import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InboxRow } from '../store/inbox-rows';
import { answerValue } from './answers';
import { applicationsCsv, csvCell, neutralizeFormula } from './csv';

/** Text with what CSV cares about (separator, quotes, line breaks, formula starts) over-represented. */
const cellText = fc.string({
  unit: fc.oneof(fc.constantFrom(',', '"', '\r', '\n', '\r\n', '=', '+', '-', '@', '\t', ' ', "'"), fc.string({ minLength: 1, maxLength: 3 })),
  maxLength: 12,
});

const row = (id: string, payload: unknown): InboxRow => ({
  id,
  pageId: 'creators',
  receivedAt: '2026-11-24T05:00:00.000Z',
  status: 'new',
  note: '',
  firstName: '',
  lastName: '',
  email: '',
  countryCode: '',
  payload,
});

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function* batches(...rows: InboxRow[][]) {
  yield* rows;
}

describe('CSV cells', () => {
  it('writes every record as csv-stringify did with the export options (RFC 4180, a bare CR or LF quoted)', () => {
    fc.assert(
      fc.property(fc.array(cellText, { minLength: 2, maxLength: 6 }), (cells) => {
        const ours = `${cells.map(csvCell).join(',')}\r\n`;
        expect(ours).toBe(stringify([cells], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ }));
        expect(parse(ours, { relax_column_count: false })).toEqual([cells]);
      }),
      { numRuns: 2000 },
    );
  });

  it('exports the header, then one row per application with formulas neutralised and line breaks kept in their cells', async () => {
    const columns = [
      { key: 'personalInfo.firstName', label: 'First name' },
      { key: 'fields.dreamCampaign', label: '=Dream, "campaign"' },
    ];
    const csv = await text(
      applicationsCsv(
        batches(
          [{ ...row('a', { personalInfo: { firstName: '=cmd' }, fields: { dreamCampaign: 'one\ntwo, "three"' } }), tags: ['gifting', 'UGC'] }],
          [],
          [{ ...row('b', { fields: { dreamCampaign: 7 } }), tags: ['=SUM(1)'] }],
        ),
        columns,
      ),
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(parse(csv, { bom: true })).toEqual([
      ['ID', 'Page', 'Received', 'Status', 'Note', 'Tags', 'First name', neutralizeFormula('=Dream, "campaign"')],
      ['a', 'creators', '2026-11-24T05:00:00.000Z', 'new', '', 'gifting, UGC', "'=cmd", 'one\ntwo, "three"'],
      ['b', 'creators', '2026-11-24T05:00:00.000Z', 'new', '', "'=SUM(1)", '', ''],
    ]);
  });

  it('stops reading when destroyed, and is destroyed with the error of a batch that fails', async () => {
    let finished = false;
    async function* endless() {
      try {
        for (let n = 0; ; n++) yield [row(`r${n}`, {})];
      } finally {
        finished = true;
      }
    }
    const stream = applicationsCsv(endless(), []);
    let seen = '';
    for await (const chunk of stream) {
      seen += String(chunk);
      // The header, then the first batch: the iteration has begun.
      if (seen.includes('r0')) break;
    }
    await expect.poll(() => finished).toBe(true);

    async function* failing() {
      yield [row('x', {})];
      throw new Error('store gone');
    }
    await expect(text(applicationsCsv(failing(), []))).rejects.toThrow('store gone');
  });
});

describe('the phone in E.164', () => {
  it('is read as one international number, NANP 7-digit forms with their area code', () => {
    const phone = (countryCode: string, subscriber: string) => answerValue({ personalInfo: { phone: { countryCode, subscriber } } }, 'personalInfo.phone');
    expect(phone('44', '7400123456')).toBe('+447400123456');
    expect(phone('1-684', '5551234')).toBe('+16845551234');
    expect(phone('1-684', '6845551234')).toBe('+16845551234');
    expect(phone('44', '77 00')).toBe('+44 77 00');
    expect(answerValue({ personalInfo: {} }, 'personalInfo.phone')).toBe('');
  });
});
