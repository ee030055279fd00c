import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import frenchJson from '../../config/examples/createurs-fr.json';
import defaultJson from '../../config/wizard.json';
import { checkSubmission } from './application-check';
import { buildPayload } from './build-payload';
import { consentPath } from './blocks/consent';
import { parseWizardConfig, type Block, type PersonalInfoField, type WizardConfig } from './config';
import { initialValues, isSentPath } from './form-values';
import { getPath, setPath } from './paths';
import { loadPhoneNumbers } from './phone';
import { platformKeys, platformPath } from './platforms';
import { PLATFORM_FILLED_PATH } from './blocks/platforms';
import { validateTargets, validationTargets } from './validation';

/**
 * One rulebook: for applications generated from each shipped configuration, valid and
 * invalid, the wizard's final-submit validation (on its form values) and the server's
 * (`checkSubmission` on the payload the wizard would send) give the same verdict and the same
 * messages, path by path. The values are those the wizard's controls produce (typed text, picked
 * options, a stale or tampered option), so what differs is a rule that differs.
 */

beforeAll(() => loadPhoneNumbers());

const SHIPPED: [string, unknown][] = [
  ['config/wizard.json', defaultJson],
  ['config/examples/createurs-fr.json', frenchJson],
];

const text = fc.constantFrom('', ' ', 'Ada', ' Ada Lovelace ', 'A\u0000da', 'a'.repeat(201), 'x\ny');
const longText = fc.constantFrom('', '  ', 'A putty castle', ' one\ttwo\r\nthree ', 'x'.repeat(2001), 'x'.repeat(5001), 'bad\u0000');
const EMAILS = ['', 'ada@example.com', ' Ada@Example.COM ', 'ada@', 'a b@example.com', 'ada@exa\u200bmple.com', `${'a'.repeat(250)}@x.com`];
const HANDLES = [
  '',
  'ada',
  ' ada.makes ',
  '@adamakes',
  'ada_makes',
  'https://www.instagram.com/ada/',
  'a b',
  'ad\u200ba',
  '@',
  '@@ada',
  'ada@example.com',
  'ada.com',
  'a'.repeat(31),
];
const COUNTS = ['', '12000', '12,000', ' 5 ', '12k', '1.2M', '1'.repeat(16), '0'];
const URLS = ['', 'ada.dev', 'https://ada.dev/shop', 'not a url', 'http://x'];

const VALID_TEXT = fc.constantFrom('Ada', ' Ada Lovelace ');
const VALID_LONG_TEXT = fc.constantFrom('A putty castle', ' one\ttwo\r\nthree ');

/** Personal info as typed: any value ('any'), or values every rule accepts ('valid'; the province is set from the country later). */
function personalInfoValues(fields: readonly PersonalInfoField[], mode: 'any' | 'valid'): fc.Arbitrary<[string, unknown][]> {
  const valid = mode === 'valid';
  const values: Partial<Record<PersonalInfoField, fc.Arbitrary<unknown>>> = {
    emailAddress: fc.constantFrom(...(valid ? ['ada@example.com', ' Ada@Example.COM '] : EMAILS)),
    phone: (valid
      ? fc.constantFrom(
          { countryCode: '1', subscriber: '2025550123' },
          { countryCode: '1', subscriber: '(202) 555-0123' },
          { countryCode: '44', subscriber: ' 07400 123456 ' },
          { countryCode: '1-684', subscriber: '633 0000' },
          { countryCode: '1', subscriber: '+44 7400 123456' },
        )
      : fc.record({
          countryCode: fc.constantFrom('1', '44', '1-684', '999'),
          subscriber: fc.constantFrom(
            '',
            '2025550123',
            ' 7700900123 ',
            '0612345678',
            '07400 123456',
            '+44 7400 123456',
            '0044 7400 123456',
            '1',
            '12a',
            '1'.repeat(16),
          ),
        })) as fc.Arbitrary<unknown>,
    countryCode: fc.constantFrom(...(valid ? ['US', 'CA', 'GB', 'FR'] : ['', 'US', 'CA', 'GB', 'FR', 'ZZ'])),
    provinceCode: valid ? fc.constant('') : fc.constantFrom('', 'NY', 'ON', 'XX'),
    zip: fc.constantFrom(...(valid ? ['75001', '12-345'] : ['', '75001', '12-345', 'AB1', '1'.repeat(21)])),
  };
  return fc.tuple(...fields.map((field) => (values[field] ?? (valid ? VALID_TEXT : text)).map((v): [string, unknown] => [`personalInfo.${field}`, v])));
}

/**
 * An arbitrary for the form values of one block, as `[path, value]` pairs: any value the controls
 * can hold (`mode` 'any'), or only values every rule of the shipped pages accepts ('valid').
 */
function blockValues(block: Block, mode: 'any' | 'valid'): fc.Arbitrary<[string, unknown][]> {
  if (mode === 'valid') return validBlockValues(block);
  switch (block.component) {
    case 'personalInfo':
      return personalInfoValues(block.data.fields, 'any');
    case 'platforms':
      return fc.tuple(
        ...block.data.platforms.map(({ name }) => {
          const { identity, audience } = platformKeys(name);
          return fc
            .tuple(fc.constantFrom(...(identity === 'url' ? URLS : HANDLES)), fc.constantFrom(...COUNTS))
            .map(([id, count]): [string, unknown] => [platformPath(name), { [identity]: id, [audience]: count }]);
        }),
      );
    case 'select': {
      const values = block.data.options.map((option) => option.value);
      // 'Banana': an option of an older configuration kept in a draft, or a tampered request.
      const pick = fc.constantFrom('', ...values, 'Banana');
      return (
        block.data.multiple
          ? fc.uniqueArray(
              pick.filter((v) => v !== ''),
              { maxLength: values.length + 1 },
            )
          : pick
      ).map((v) => [[block.data.path, v]]);
    }
    case 'yesNo':
      return fc.tuple(fc.constantFrom(undefined, true, false), text).map(([value, answer]) => [[block.data.path, { value, text: answer }]]);
    case 'textField':
      return (block.data.multiline ? longText : text).map((v) => [[block.data.path, v]]);
    case 'checkbox':
      return fc.constantFrom(undefined, true, false).map((v) => [[block.data.path, v]]);
    case 'consent':
      return fc.constantFrom(undefined, true, false).map((v) => [[consentPath(block.data.purpose), v]]);
    case 'html':
      return fc.constant([]);
  }
}

function validBlockValues(block: Block): fc.Arbitrary<[string, unknown][]> {
  switch (block.component) {
    case 'personalInfo':
      return personalInfoValues(block.data.fields, 'valid');
    case 'platforms':
      return fc.tuple(
        ...block.data.platforms.map(({ name, required }) => {
          const { identity, audience } = platformKeys(name);
          const filled = fc.tuple(
            fc.constantFrom(...(identity === 'url' ? ['ada.dev', ' https://ada.dev/shop '] : ['adamakes', ' adamakes ', '@adamakes'])),
            fc.constantFrom('12000', '12,000', ' 5 '),
          );
          return (required ? filled : fc.oneof(filled, fc.constant(['', ''] as [string, string]))).map(([id, count]): [string, unknown] => [
            platformPath(name),
            { [identity]: id, [audience]: count },
          ]);
        }),
      );
    case 'select': {
      const values = block.data.options.map((option) => option.value);
      const max = block.data.maxLength ?? values.length;
      return (block.data.multiple ? fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: max }) : fc.constantFrom(...values)).map((v) => [
        [block.data.path, v],
      ]);
    }
    case 'yesNo':
      return fc.tuple(fc.constantFrom(true, false), VALID_TEXT).map(([value, answer]) => [[block.data.path, { value, text: answer }]]);
    case 'textField':
      return (block.data.multiline ? VALID_LONG_TEXT : VALID_TEXT).map((v) => [[block.data.path, v]]);
    case 'checkbox':
      return fc.constant([[block.data.path, true]]);
    case 'consent':
      return (block.data.required ? fc.constant(true) : fc.constantFrom(true, false)).map((v) => [[consentPath(block.data.purpose), v]]);
    case 'html':
      return fc.constant([]);
  }
}

/** Form values of a whole application of `config`, over the form's starting values. */
function applications(config: WizardConfig, mode: 'any' | 'valid' = 'any'): fc.Arbitrary<Record<string, unknown>> {
  const blocks = config.steps.flatMap((step) => step.blocks);
  return fc.tuple(...blocks.map((block) => blockValues(block, mode))).map((pairs) => {
    const values = structuredClone(initialValues(config));
    for (const [path, value] of pairs.flat()) setPath(values, path, value);
    if (mode === 'valid') {
      const info = values.personalInfo as Record<string, unknown>;
      if ('provinceCode' in info) info.provinceCode = ({ US: 'NY', CA: 'ON' } as Record<string, string>)[String(info.countryCode)] ?? '';
      // At least one platform (requirements §5): the first row of each platforms block filled when all are empty.
      for (const block of blocks) {
        if (block.component !== 'platforms') continue;
        const rows = block.data.platforms.map(({ name }) => platformPath(name));
        if (rows.every((row) => Object.values((getPath(values, row) ?? {}) as object).every((v) => v === ''))) {
          const { identity, audience } = platformKeys(block.data.platforms[0]!.name);
          setPath(values, rows[0]!, { [identity]: identity === 'url' ? 'ada.dev' : 'adamakes', [audience]: '10' });
        }
      }
    }
    return values;
  });
}

/** The wizard's verdict on what it would send: path → message (the platform-filled rule at `platforms`). */
function wizardVerdict(config: WizardConfig, values: Record<string, unknown>): Record<string, string> {
  const errors = validateTargets(validationTargets(config), values, config.messages);
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([path]) => path === PLATFORM_FILLED_PATH || isSentPath(path))
      .map(([path, message]) => [path === PLATFORM_FILLED_PATH ? 'platforms' : path, message]),
  );
}

function serverVerdict(config: WizardConfig, values: Record<string, unknown>): Record<string, string> {
  // The age screen (requirements §20) is answered before the form's steps: an adult's answer here.
  const screen = config.ageScreen && { age: { birthMonth: '1990-01', ...(config.ageScreen.minimumAge === 'byCountry' ? { countryCode: 'FR' } : {}) } };
  const checked = checkSubmission(config, JSON.parse(JSON.stringify(buildPayload(config, values, screen))));
  return Object.fromEntries((checked.errors ?? []).map((error) => [error.path, error.message]));
}

describe.each(SHIPPED)('one rulebook for %s (fast-check)', (_name, json) => {
  const config = parseWizardConfig(structuredClone(json)).config!;

  it('the wizard and the server give the same verdict and the same messages', () => {
    fc.assert(
      fc.property(fc.oneof(applications(config), applications(config, 'valid')), (values) => {
        expect(serverVerdict(config, values)).toEqual(wizardVerdict(config, values));
      }),
      { numRuns: 500 },
    );
  });

  it('valid applications (answers as creators type them: spaces, 12,000, upper-case domains) pass on both sides', () => {
    fc.assert(
      fc.property(applications(config, 'valid'), (values) => {
        expect(wizardVerdict(config, values)).toEqual({});
        expect(serverVerdict(config, values)).toEqual({});
      }),
      { numRuns: 200 },
    );
  });
});
