import examples from 'libphonenumber-js/mobile/examples';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { callingCodes } from './data/countries';
import {
  fullPhoneMetadata,
  metadataCodeOf,
  metadataCodes,
  PHONE_METADATA_CODES,
  PHONE_METADATA_PATH,
  phoneMetadataFor,
  phoneMetadataUrl,
} from './phone-metadata';

// Decision 010, "The phone library's metadata by calling code": the wizard judges a phone answer with
// the files of the calling codes the answer names, the server with the whole metadata; the two must
// give the same answers for every input.

type PhoneModule = typeof import('./phone');

const whole = await fullPhoneMetadata();

/** A fresh copy of phone.ts (its own loaded library and metadata). */
async function freshPhoneModule(): Promise<PhoneModule> {
  vi.resetModules();
  return import('./phone');
}

/** Serves the per-code files as the built `dist` does (`fetch`, stubbed), and lists what was asked for. */
function serveFiles(): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', (url: string) => {
    asked.push(url);
    const code = url.startsWith(PHONE_METADATA_PATH) ? url.slice(PHONE_METADATA_PATH.length).replace(/\.json$/, '') : '';
    const part = phoneMetadataFor(whole, code);
    return Promise.resolve(part ? new Response(JSON.stringify(part)) : new Response('', { status: 404 }));
  });
  return asked;
}
afterAll(() => vi.unstubAllGlobals());

/** A small deterministic generator of digit strings (no clock, no Math.random: the same cases every run). */
function digitStrings(seed: number, count: number): string[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648);
  return Array.from({ length: count }, () => Array.from({ length: 1 + (next() % 16) }, () => String(next() % 10)).join(''));
}

/** What phone.ts answers about a calling code and a typed number: every check the wizard and the server make. */
function answers(phone: PhoneModule, callingCode: string, typed: string) {
  const parts = phone.phoneParts(callingCode, typed);
  return {
    parts,
    valid: phone.isValidPhone(parts.callingCode, parts.subscriber),
    country: phone.phoneCountry(parts.callingCode, parts.subscriber),
    typedCountry: phone.phoneCountry(callingCode, typed),
  };
}

describe('the phone metadata by calling code', () => {
  it('has a file for every calling code of the metadata and no other, and no code begins another', () => {
    expect([...PHONE_METADATA_CODES].sort()).toEqual(metadataCodes(whole).sort());
    const codes = [...PHONE_METADATA_CODES];
    expect(codes.filter((code) => codes.some((other) => other !== code && other.startsWith(code)))).toEqual([]);
    expect(metadataCodeOf('+447400123456')).toBe('44');
    expect(metadataCodeOf('+16845551234')).toBe('1');
    expect(metadataCodeOf('+8001234')).toBe('800');
    expect(metadataCodeOf('+999')).toBeUndefined();
    expect(phoneMetadataUrl('44')).toBe(`${PHONE_METADATA_PATH}44.json`);
  });

  it("a code's file holds its countries' plans (the main country first) or its non-geographic plan, and nothing else", () => {
    const gb = phoneMetadataFor(whole, '44')!;
    expect(gb.country_calling_codes).toEqual({ 44: ['GB', 'GG', 'IM', 'JE'] });
    expect(Object.keys(gb.countries).sort()).toEqual(['GB', 'GG', 'IM', 'JE']);
    expect(gb.nonGeographic).toEqual({});
    const uifn = phoneMetadataFor(whole, '800')!;
    expect(Object.keys(uifn.nonGeographic)).toEqual(['800']);
    expect(uifn.country_calling_codes).toEqual({});
    expect(phoneMetadataFor(whole, '999')).toBeUndefined();
    // Every plan of the whole metadata is in exactly one file.
    const parts = [...PHONE_METADATA_CODES].map((code) => phoneMetadataFor(whole, code)!);
    expect(parts.flatMap((part) => Object.keys(part.countries)).sort()).toEqual(Object.keys(whole.countries).sort());
    expect(parts.flatMap((part) => Object.keys(part.nonGeographic)).sort()).toEqual(Object.keys(whole.nonGeographic).sort());
  });

  it('judges every number with the files of the codes it names exactly as with the whole metadata, fetching only those', async () => {
    const server = await freshPhoneModule();
    await server.loadPhoneNumbers();
    const asked = serveFiles();
    // Each code of the country table (NANP areas included), Ascension's, and codes no country has.
    const chosen = [...new Set([...callingCodes(), ...PHONE_METADATA_CODES, '999', '4', '0', ''])];
    const others = Object.entries(examples as Record<string, string>);
    let cases = 0;
    for (const [index, callingCode] of chosen.entries()) {
      const code = callingCode.split('-')[0]!;
      // A fresh wizard for each code: only the files its own answers asked for are loaded.
      const wizard = await freshPhoneModule();
      asked.length = 0;
      const countries = whole.country_calling_codes[code] ?? [];
      const own = countries.map((country) => (examples as Record<string, string>)[country]).filter((number) => number !== undefined);
      const [otherCountry, otherNumber] = others[index % others.length]!;
      // A country's plan begins with its calling code (libphonenumber-js's metadata format).
      const otherCode = (whole.countries as Record<string, readonly [string, ...unknown[]]>)[otherCountry]![0];
      // Typed as applicants type: national numbers with and without trunk prefix and separators,
      // another country's number after an international prefix (011, 810; `00…` below), digits.
      const typedForms = [
        ...own.flatMap((number) => [
          number,
          `0${number}`,
          `1${number}`,
          `${number.slice(0, 3)} ${number.slice(3)}`,
          `(${number.slice(0, 3)}) ${number.slice(3)}`,
          number.slice(1),
          `${number}9`,
        ]),
        `011${otherCode}${otherNumber}`,
        `810${otherCode}${otherNumber}`,
        `${code}${own[0] ?? ''}`,
        ...digitStrings(index + 1, 12),
        'abc',
        '',
      ];
      // `00…` is an international number (phoneParts): those come last, with the pasted ones.
      const national = typedForms.filter((typed) => !typed.startsWith('00'));
      for (const typed of national) {
        await wizard.loadPhoneNumbersFor(callingCode, typed);
        expect(answers(wizard, callingCode, typed), `${callingCode} ${typed}`).toEqual(answers(server, callingCode, typed));
        cases++;
      }
      // A national number needs the chosen code's file only (a code the metadata lacks, `4`, is
      // judged by the code that begins it and the number: `+4 4…` is a British number).
      if (PHONE_METADATA_CODES.has(code)) expect(new Set(asked), callingCode).toEqual(new Set([phoneMetadataUrl(code)]));
      // Pasted international numbers bring their own code (last: they load other files).
      const international = [
        ...typedForms.filter((typed) => typed.startsWith('00')),
        `+${otherCode} ${otherNumber}`,
        `00${otherCode}${otherNumber}`,
        `+${code}${own[0] ?? '123'}`,
        `+ ${code} ${own[0] ?? ''}`,
        '+999 123 456',
        '+4',
      ];
      for (const typed of international) {
        await wizard.loadPhoneNumbersFor(callingCode, typed);
        expect(answers(wizard, callingCode, typed), `${callingCode} ${typed}`).toEqual(answers(server, callingCode, typed));
        cases++;
      }
    }
    expect(cases).toBeGreaterThan(5_000);
  });

  it('falls back to 4–15 digits until the chosen code’s file has arrived, and tries a failed fetch again', async () => {
    const wizard = await freshPhoneModule();
    let fail = true;
    vi.stubGlobal('fetch', (url: string) => {
      if (fail) return Promise.reject(new TypeError('Failed to fetch'));
      return Promise.resolve(new Response(JSON.stringify(phoneMetadataFor(whole, url.slice(PHONE_METADATA_PATH.length).replace(/\.json$/, ''))!)));
    });
    await expect(wizard.loadPhoneNumbersFor('33', '0612345678')).rejects.toThrow('Failed to fetch');
    // A French mobile left under +33 is valid; 1234 passes the fallback, not the plan.
    expect(wizard.isValidPhone('33', '1234')).toBe(true);
    expect(wizard.phoneParts('33', '06 12 34 56 78')).toEqual({ callingCode: '33', subscriber: '0612345678' });
    fail = false;
    await wizard.loadPhoneNumbersFor('33', '0612345678');
    expect(wizard.isValidPhone('33', '1234')).toBe(false);
    expect(wizard.phoneParts('33', '06 12 34 56 78')).toEqual({ callingCode: '33', subscriber: '612345678' });
    // Another code's numbers still wait for their own file.
    expect(wizard.isValidPhone('44', '1234')).toBe(true);
    expect(wizard.phoneParts('33', '+44 7400 123456')).toEqual({ callingCode: '33', subscriber: '+44 7400 123456' });
  });
});
