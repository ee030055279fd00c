import { describe, expect, it } from 'vitest';
import frenchJson from '../../../config/examples/createurs-fr.json';
import defaultJson from '../../../config/wizard.json';
import { buildPayload } from '../../shared/build-payload';
import { parseWizardConfig, type WizardConfig } from '../../shared/config';
import { initialValues, isSentPath, pageFields } from '../../shared/form-values';
import { setPath } from '../../shared/paths';
import { loadPhoneNumbers } from '../../shared/phone';
import { answerColumns, answerValue, labelText, labelledAnswers } from './answers';

/** Every answer a page asks for, filled as an applicant would (the US, so the state is asked too). */
function everythingAnswered(config: WizardConfig): Record<string, unknown> {
  const values = initialValues(config);
  for (const [path, field] of pageFields(config)) {
    const value =
      path === 'personalInfo.countryCode'
        ? 'US'
        : path === 'personalInfo.provinceCode'
          ? 'CA'
          : path === 'personalInfo.phone.countryCode'
            ? '44'
            : path === 'personalInfo.emailAddress'
              ? 'ada@example.com'
              : path.endsWith('.url')
                ? 'https://ada.example'
                : field.kind === 'phone'
                  ? '7400 123456'
                  : field.kind === 'count'
                    ? '12,000'
                    : field.kind === 'boolean'
                      ? true
                      : field.kind === 'list'
                        ? [field.options![0]]
                        : field.kind === 'choice'
                          ? field.options![0]
                          : 'ada';
    setPath(values, path, value);
  }
  return values;
}

/** The column keys of a payload: `personalInfo.phone` as one, survey answers under `fields.`. */
function payloadKeys(payload: ReturnType<typeof buildPayload>): string[] {
  const info = Object.keys(payload.personalInfo).map((key) => `personalInfo.${key}`);
  const platforms = Object.entries(payload.platforms ?? {}).flatMap(([name, values]) => Object.keys(values ?? {}).map((key) => `platforms.${name}.${key}`));
  const screen = [
    ...Object.keys(payload.age ?? {}).map((key) => `age.${key}`),
    ...Object.keys(payload.guardian ?? {}).map((key) => `guardian.${key}`),
    ...Object.keys(payload.consents ?? {}).map((key) => `consents.${key}`),
  ];
  return [...screen, ...info, ...platforms, ...Object.keys(payload.fields ?? {}).map((key) => `fields.${key}`)];
}

describe.each([
  ['config/wizard.json', defaultJson],
  ['config/examples/createurs-fr.json', frenchJson],
])('the inbox columns of %s come from the blocks\u2019 shared definitions', (_name, json) => {
  const config = parseWizardConfig(structuredClone(json)).config!;

  it('an application that answers everything has one column per answer sent, and each column reads its answer back', async () => {
    await loadPhoneNumbers();
    // The age screen's answers (the French example asks them by country), as an adult gives them.
    const screen = config.ageScreen && {
      age: { birthMonth: '1990-01', countryCode: 'FR' },
      ...(config.ageScreen.minors === 'guardian' ? { guardian: { name: 'Pat Durand', emailAddress: 'pat@example.fr' } } : {}),
    };
    const payload = buildPayload(config, everythingAnswered(config), screen);
    const columns = answerColumns(config).map((column) => column.key);
    expect([...payloadKeys(payload)].sort()).toEqual([...columns].sort());
    for (const key of columns) expect(answerValue(payload, key), key).not.toBe('');
    expect(answerValue(payload, 'personalInfo.phone')).toBe('+447400123456');
  });

  it('asks nothing the inbox would not show: no column for a value never sent (the agreement)', () => {
    const unsent = [...pageFields(config).keys()].filter((path) => !isSentPath(path));
    const columns = new Set(answerColumns(config).map((column) => column.key));
    for (const path of unsent) expect(columns.has(path), path).toBe(false);
    if (json === frenchJson) expect(unsent).toContain('agreement');
  });

  it('labels each column with the question as the applicant saw it, as plain text', () => {
    for (const { key, label } of answerColumns(config)) {
      expect(label, key).not.toMatch(/[<>]/);
      expect(label, key).not.toBe('');
      // A name, not a prompt: no required mark.
      expect(label, key).not.toMatch(/\*\s*$/);
    }
  });
});

describe('labelText', () => {
  it('names a question without the required mark the applicant saw, as one line of plain text', () => {
    expect(labelText('How often do you play? *')).toBe('How often do you play?');
    expect(labelText('<b>Dream</b>  campaign\n* ')).toBe('Dream campaign');
    expect(labelText('Stars * and more')).toBe('Stars * and more');
    expect(labelText('*')).toBe('');
  });
});

describe('choices in the detail', () => {
  const withOptions = (options: { name: string; value: string }[]) => {
    // The default page, in French words for Yes and No.
    const json = structuredClone(defaultJson) as unknown as {
      messages?: Record<string, string>;
      steps: { blocks: { component: string; data: { path?: string; options?: { name: string; value: string }[] } }[] }[];
    };
    json.messages = { ...json.messages, yes: 'Oui', no: 'Non' };
    json.steps.flatMap((step) => step.blocks).find((block) => block.data.path === 'fields.whichProducts')!.data.options = options;
    return answerColumns(parseWizardConfig(json).config!);
  };
  const textOf = (columns: ReturnType<typeof answerColumns>, payload: unknown, key: string) =>
    labelledAnswers(columns, payload).find((answer) => answer.key === key);

  it("names a choice as the applicant saw it where the name differs from the value stored: options as the wizard shows them, several picked, Yes and No in the page's words", () => {
    const columns = withOptions([
      { name: '<b>Thinking Putty</b> (la pâte) *', value: 'putty' },
      { name: 'Slime Charmers', value: 'Slime Charmers' },
    ]);
    expect(columns.find((column) => column.key === 'fields.whichProducts')?.choices).toEqual({
      names: { putty: '<b>Thinking Putty</b> (la pâte) *' },
      values: ['Slime Charmers', 'putty'],
    });
    const payload = {
      fields: { whichProducts: 'putty, Slime Charmers', 'campaign.value': 'Yes', 'campaign.text': 'Oui, souvent' },
      personalInfo: { firstName: 'Ada', countryCode: 'FR' },
    };
    // Option names are text (the wizard shows them so): kept as they are, marks and all.
    expect(textOf(columns, payload, 'fields.whichProducts')).toMatchObject({
      value: 'putty, Slime Charmers',
      text: '<b>Thinking Putty</b> (la pâte) *, Slime Charmers',
    });
    const yesNo = columns.find((column) => column.key === 'fields.campaign.value')!;
    expect(yesNo.choices).toEqual({ names: { Yes: 'Oui', No: 'Non' } });
    expect(textOf(columns, payload, 'fields.campaign.value')).toMatchObject({ value: 'Yes', text: 'Oui' });
    expect(textOf(columns, payload, 'fields.campaign.text')).not.toHaveProperty('text');
    // Only selects, yes/no answers and checkboxes carry names: not the country, not free text.
    expect(
      columns
        .filter((column) => column.choices)
        .map((column) => column.key)
        .sort(),
    ).toEqual(['fields.whichProducts', yesNo.key].sort());
    expect(textOf(columns, payload, 'personalInfo.firstName')).toEqual({ key: 'personalInfo.firstName', label: expect.any(String), value: 'Ada' });
    const english = parseWizardConfig(structuredClone(defaultJson)).config!;
    expect(answerColumns(english).filter((column) => column.choices)).toEqual([]);
  });

  it('reads a multi-select answer against its options, so an option whose value holds ", " is named whole', () => {
    const columns = withOptions([
      { name: 'Glow putty', value: 'Glow, in the dark' },
      { name: 'Slime Charmers (slime)', value: 'Slime' },
    ]);
    const answer = (whichProducts: string) => textOf(columns, { fields: { whichProducts } }, 'fields.whichProducts')?.text;
    expect(answer('Glow, in the dark')).toBe('Glow putty');
    expect(answer('Glow, in the dark, Slime')).toBe('Glow putty, Slime Charmers (slime)');
    expect(answer('Slime, Glow, in the dark')).toBe('Slime Charmers (slime), Glow putty');
    // A part no option has (an answer of an older version) is read up to the next ", ".
    expect(answer('Retired, Slime')).toBe('Retired, Slime Charmers (slime)');
  });
});
