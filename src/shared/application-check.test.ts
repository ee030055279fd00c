import { beforeAll, describe, expect, it } from 'vitest';
import frenchJson from '../../config/examples/createurs-fr.json';
import { defaultConfig, rawDefaultConfig, validPayload } from '../../tests/factories/application';
import { checkApplication, checkSubmission } from './application-check';
import { cleanPayload } from './build-payload';
import { parseWizardConfig, WizardConfigSchema } from './config';
import { DEFAULT_MESSAGES } from './messages';
import { loadPhoneNumbers } from './phone';

const config = defaultConfig();
const check = (payload: unknown) => checkApplication(config, payload);
const valid = validPayload();
const withInfo = (patch: Record<string, unknown>) => ({ ...valid, personalInfo: { ...valid.personalInfo, ...patch } });
const withFields = (patch: Record<string, string | undefined>) => ({ ...valid, fields: { ...valid.fields, ...patch } });

// The whole phone metadata, as the server loads it before it serves (src/shared/phone.ts): what a
// phone number is judged by then does not depend on which file of the worker loaded it first.
beforeAll(() => loadPhoneNumbers());

describe("checkApplication: the page's own rules on the server", () => {
  it('a valid application of the default page passes', () => {
    expect(check(valid)).toEqual([]);
  });

  it('an e-mail domain with a Kelvin sign (U+212A) is refused, not lower-cased into a k', () => {
    expect(checkSubmission(config, withInfo({ emailAddress: 'ada@\u212Aexample.com' })).errors).toEqual([
      { path: 'personalInfo.emailAddress', message: DEFAULT_MESSAGES.email },
    ]);
  });

  it('an answer of spaces only is no answer: required where the page requires it, and never stored as ""', () => {
    expect(checkSubmission(config, withFields({ dreamCampaign: '   ' }))).toEqual({
      errors: [{ path: 'fields.dreamCampaign', message: DEFAULT_MESSAGES.required }],
    });
    const optional = checkSubmission(config, withInfo({ company: '  ' }));
    expect(optional.errors).toBeUndefined();
    expect(optional.payload?.personalInfo).not.toHaveProperty('company');
  });

  it('refuses what a hand-written client sent that the page would never accept (hand-written curl cases)', () => {
    expect(check({ ...valid, fields: {} })).toEqual(
      expect.arrayContaining([
        { path: 'fields.howFamiliar', message: DEFAULT_MESSAGES.required },
        { path: 'fields.howOften', message: DEFAULT_MESSAGES.required },
        { path: 'fields.dreamCampaign', message: DEFAULT_MESSAGES.required },
      ]),
    );
    expect(check({ ...valid, platforms: {} })).toEqual([{ path: 'platforms', message: DEFAULT_MESSAGES.platformRequired }]);
    expect(check(withFields({ howFamiliar: 'Banana' }))).toEqual([{ path: 'fields.howFamiliar', message: DEFAULT_MESSAGES.option }]);
    expect(check(withInfo({ countryCode: 'ZZ' }))).toEqual([{ path: 'personalInfo.countryCode', message: DEFAULT_MESSAGES.option }]);
    expect(check(withInfo({ phone: { countryCode: '999', subscriber: '7700900123' } }))).toEqual([
      { path: 'personalInfo.phone.countryCode', message: DEFAULT_MESSAGES.option },
      { path: 'personalInfo.phone.subscriber', message: DEFAULT_MESSAGES.phone },
    ]);
    // The province shows only for the US and Canada: sent with GB, it is an answer the page never asked.
    expect(check(withInfo({ countryCode: 'GB', provinceCode: 'ON' }))).toEqual([{ path: 'personalInfo.provinceCode', message: DEFAULT_MESSAGES.notAsked }]);
    expect(check(withInfo({ countryCode: 'CA', provinceCode: 'NY' }))).toEqual([{ path: 'personalInfo.provinceCode', message: DEFAULT_MESSAGES.option }]);
    expect(check(withInfo({ countryCode: 'CA', provinceCode: 'ON' }))).toEqual([]);
  });

  it('refuses answers the page does not ask for, and answers hidden by their condition', () => {
    expect(check(withFields({ favouriteColour: 'Blue' }))).toEqual([{ path: 'fields.favouriteColour', message: DEFAULT_MESSAGES.notAsked }]);
    expect(check(withInfo({ company: 'ACME' }))).toEqual([{ path: 'personalInfo.company', message: DEFAULT_MESSAGES.notAsked }]);
    expect(check({ ...valid, platforms: { ...valid.platforms, twitch: { handle: 'ada', followers: '1' } } })).toEqual([
      { path: 'platforms.twitch', message: DEFAULT_MESSAGES.notAsked },
    ]);
    // The brands box shows only on Yes.
    expect(check(withFields({ 'campaign.value': 'No' }))).toEqual([{ path: 'fields.campaign.text', message: DEFAULT_MESSAGES.notAsked }]);
    expect(check(withFields({ 'campaign.value': 'No', 'campaign.text': undefined }))).toEqual([]);
    // …and on Yes it is required (requirements §5: a configured condition makes the item required while it holds).
    expect(check(withFields({ 'campaign.text': undefined }))).toEqual([{ path: 'fields.campaign.text', message: DEFAULT_MESSAGES.required }]);
    expect(check(withFields({ 'campaign.value': 'Maybe', 'campaign.text': undefined }))).toEqual([
      { path: 'fields.campaign.value', message: DEFAULT_MESSAGES.option },
    ]);
  });

  it('reads multi-select answers back option by option, the maximum included, an option holding ", " whole', () => {
    const raw = rawDefaultConfig();
    const products = raw.steps[2].blocks.find((block: { data: { path?: string } }) => block.data.path === 'fields.whichProducts');
    products.data.options.push({ name: 'Glow, in the dark', value: 'Glow, in the dark' });
    products.data.maxLength = 2;
    const limited = parseWizardConfig(raw).config!;
    expect(checkApplication(limited, withFields({ whichProducts: 'Thinking Putty, Glow, in the dark' }))).toEqual([]);
    expect(checkApplication(limited, withFields({ whichProducts: 'Thinking Putty, Gold' }))).toEqual([
      { path: 'fields.whichProducts', message: DEFAULT_MESSAGES.option },
    ]);
    expect(checkApplication(limited, withFields({ whichProducts: 'Thinking Putty, Land of Dough, Glow, in the dark' }))).toEqual([
      { path: 'fields.whichProducts', message: 'Choose at most 2' },
    ]);
  });

  it("speaks the page's language: the French example's own texts", () => {
    const french = parseWizardConfig(structuredClone(frenchJson)).config!;
    const errors = checkApplication(french, {
      personalInfo: { firstName: 'Ada', lastName: '', emailAddress: 'ada@' },
      platforms: {},
      fields: { whichProducts: 'Banane' },
    });
    const messages = Object.fromEntries(errors.map((error) => [error.path, error.message]));
    expect(messages['personalInfo.lastName']).toBe(french.messages.required);
    expect(messages['personalInfo.emailAddress']).toBe(french.messages.email);
    expect(messages['fields.whichProducts']).toBe(french.messages.option);
    expect(messages.platforms).toBe(french.messages.requiredPlatforms);
    for (const message of Object.values(messages)) expect(Object.values(DEFAULT_MESSAGES)).not.toContain(message);
  });

  it('tolerates any shape without throwing (the payload schema names the shape errors)', () => {
    for (const body of [
      null,
      [],
      'x',
      1,
      { personalInfo: [] },
      { fields: { howFamiliar: 3 } },
      { platforms: { instagram: 'x' } },
      { personalInfo: { phone: 'x' } },
    ]) {
      expect(() => check(body)).not.toThrow();
    }
  });

  it("an outside review's attacks (decision 015): a hostile multi-select answer is cheap, deep nesting is a 400, wrong types answer in the page's language", () => {
    const started = performance.now();
    const errors = check(withFields({ whichProducts: Array.from({ length: 20_000 }, () => 'x').join(', ') }));
    expect(performance.now() - started).toBeLessThan(500);
    expect(errors).toEqual([{ path: 'fields.whichProducts', message: DEFAULT_MESSAGES.option }]);
    expect(check(withFields({ whichProducts: 'Land of Dough, Land of Dough' }))).toEqual([{ path: 'fields.whichProducts', message: DEFAULT_MESSAGES.option }]);
    let deep: Record<string, unknown> = { a: 'x' };
    for (let level = 0; level < 10_000; level++) deep = { a: deep };
    expect(checkSubmission(config, { ...valid, fields: { ...valid.fields, zz: deep } }).errors).toEqual([
      { path: 'fields.zz', message: DEFAULT_MESSAGES.notAsked },
    ]);
    const french = parseWizardConfig(structuredClone(frenchJson)).config!;
    const typed = checkSubmission(french, {
      personalInfo: { firstName: 3, lastName: 'L', emailAddress: 'ada@example.com', countryCode: 'FR', city: 'Paris', zip: '75001', company: null },
      platforms: {},
      fields: {},
    });
    const messages = Object.fromEntries((typed.errors ?? []).map((error) => [error.path, error.message]));
    expect(messages['personalInfo.firstName']).toBe(french.messages.invalid);
    expect(messages['personalInfo.company']).toBe(french.messages.invalid);
  });

  it('a condition on a text answer is judged on the answer as sent (trimmed), as the wizard judges it', () => {
    const raw = rawDefaultConfig();
    raw.steps[2].blocks.push(
      { component: 'textField', data: { path: 'fields.channel', label: 'Channel' } },
      { component: 'textField', data: { path: 'fields.extra', label: 'Extra' } },
    );
    raw.formItems.push({ path: 'fields.extra', showOnCondition: { path: 'fields.channel', equals: 'TikTok' } });
    const conditional = parseWizardConfig(raw).config!;
    expect(checkApplication(conditional, withFields({ channel: 'TikTok ' }))).toEqual([{ path: 'fields.extra', message: DEFAULT_MESSAGES.required }]);
    expect(checkApplication(conditional, cleanPayload(withFields({ channel: 'TikTok ', extra: 'x' })))).toEqual([]);
  });
});

describe('the age screen on the server (requirements §20): its own clock, never the wizard verdict', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');
  const screened = (ageScreen: Record<string, unknown>) => WizardConfigSchema.parse({ ...rawDefaultConfig(), ageScreen });
  const fixed = screened({ minimumAge: 13, minors: 'guardian', endedHtml: '<p>Sorry</p>' });
  const submit = (page: ReturnType<typeof defaultConfig>, extra: Record<string, unknown>) => checkSubmission(page, { ...valid, ...extra }, now);

  it('a page without a screen takes no age or guardian', () => {
    expect(submit(config, { age: { birthMonth: '2000-01' } }).errors).toEqual([{ path: 'age', message: DEFAULT_MESSAGES.notAsked }]);
    expect(submit(config, { guardian: { name: 'A', emailAddress: 'a@example.com' } }).errors).toEqual([
      { path: 'guardian', message: DEFAULT_MESSAGES.notAsked },
    ]);
  });

  it('requires a real month of birth, not one to come', () => {
    expect(submit(fixed, {}).errors).toEqual([{ path: 'age.birthMonth', message: DEFAULT_MESSAGES.required }]);
    expect(submit(fixed, { age: { birthMonth: '2027-01' } }).errors).toEqual([{ path: 'age.birthMonth', message: DEFAULT_MESSAGES.birthMonthFuture }]);
    expect(submit(fixed, { age: { birthMonth: '1850-01' } }).errors).toEqual([{ path: 'age.birthMonth', message: DEFAULT_MESSAGES.birthYearTooEarly }]);
    expect(submit(fixed, { age: { birthMonth: '2000-1' } }).errors?.[0]?.path).toBe('age.birthMonth');
    expect(submit(fixed, { age: { birthMonth: '2000-01', countryCode: 'FR' } }).errors).toEqual([
      { path: 'age.countryCode', message: DEFAULT_MESSAGES.notAsked },
    ]);
  });

  it('refuses an age under the minimum whatever else is sent, with the ending message', () => {
    const under = submit(fixed, { age: { birthMonth: '2014-01' }, guardian: { name: 'Pat', emailAddress: 'pat@example.com' } });
    expect(under.errors).toEqual([{ path: 'age.birthMonth', message: DEFAULT_MESSAGES.ageEnded }]);
    expect(under.payload).toBeUndefined();
  });

  it('a minor names a guardian whose address is not their own; an adult names none', () => {
    expect(submit(fixed, { age: { birthMonth: '2011-05' } }).errors).toEqual([
      { path: 'guardian.name', message: DEFAULT_MESSAGES.required },
      { path: 'guardian.emailAddress', message: DEFAULT_MESSAGES.required },
    ]);
    const own = valid.personalInfo.emailAddress.toUpperCase();
    expect(submit(fixed, { age: { birthMonth: '2011-05' }, guardian: { name: 'Pat', emailAddress: own } }).errors).toEqual([
      { path: 'guardian.emailAddress', message: DEFAULT_MESSAGES.guardianEmailOwn },
      { path: 'personalInfo.emailAddress', message: DEFAULT_MESSAGES.ownEmailIsGuardians },
    ]);
    const minor = submit(fixed, { age: { birthMonth: '2011-05' }, guardian: { name: ' Pat Doe ', emailAddress: 'Pat@Example.COM' } });
    expect(minor.errors).toBeUndefined();
    expect(minor.payload).toMatchObject({ age: { birthMonth: '2011-05' }, guardian: { name: 'Pat Doe', emailAddress: 'Pat@example.com' } });
    expect(submit(fixed, { age: { birthMonth: '1990-05' }, guardian: { name: 'Pat', emailAddress: 'pat@example.com' } }).errors).toEqual([
      { path: 'guardian', message: DEFAULT_MESSAGES.notAsked },
    ]);
    expect(submit(fixed, { age: { birthMonth: '1990-05' } }).errors).toBeUndefined();
  });

  it('refuses a minor where the page refuses minors; by country, reads the country named', () => {
    const refusing = screened({ minimumAge: 13 });
    expect(submit(refusing, { age: { birthMonth: '2011-05' } }).errors).toEqual([{ path: 'age.birthMonth', message: DEFAULT_MESSAGES.ageEnded }]);
    const byCountry = screened({ minimumAge: 'byCountry', minors: 'guardian' });
    expect(submit(byCountry, { age: { birthMonth: '2000-05' } }).errors).toEqual([{ path: 'age.countryCode', message: DEFAULT_MESSAGES.required }]);
    expect(submit(byCountry, { age: { birthMonth: '2000-05', countryCode: 'XX' } }).errors).toEqual([
      { path: 'age.countryCode', message: DEFAULT_MESSAGES.option },
    ]);
    // 14: under the minimum in France (15), a minor in Belgium (13).
    const guardian = { name: 'Pat', emailAddress: 'pat@example.com' };
    expect(submit(byCountry, { age: { birthMonth: '2012-06', countryCode: 'FR' }, guardian }).errors?.[0]?.message).toBe(DEFAULT_MESSAGES.ageEnded);
    expect(submit(byCountry, { age: { birthMonth: '2012-06', countryCode: 'BE' }, guardian }).errors).toBeUndefined();
    // Another country on the screen than in the personal details: the stricter minimum of the two.
    const living = (countryCode: string) => ({ personalInfo: { ...valid.personalInfo, countryCode } });
    expect(submit(byCountry, { ...living('FR'), age: { birthMonth: '2012-06', countryCode: 'BE' }, guardian }).errors?.[0]?.message).toBe(
      DEFAULT_MESSAGES.ageEnded,
    );
    expect(submit(byCountry, { ...living('BE'), age: { birthMonth: '2012-06', countryCode: 'BE' }, guardian }).errors).toBeUndefined();
  });

  it("refuses a guardian's name with control characters, as a first name's", () => {
    for (const name of ['Pat\u0000', 'Pat\r\nX-Evil: 1'])
      expect(submit(fixed, { age: { birthMonth: '2011-05' }, guardian: { name, emailAddress: 'pat@example.com' } }).errors).toEqual([
        { path: 'guardian.name', message: DEFAULT_MESSAGES.plainText },
      ]);
  });

  it('the configuration check keeps the first step free of questions and the adult age over the minimum', async () => {
    const { checkConfigSemantics } = await import('./config-checks');
    expect(checkConfigSemantics(screened({ minimumAge: 16, adultAge: 15 })).map((problem) => problem.path)).toContain('ageScreen.adultAge');
    expect(checkConfigSemantics(screened({ minimumAge: 'byCountry', adultAge: 15 })).map((problem) => problem.path)).toContain('ageScreen.adultAge');
    expect(checkConfigSemantics(screened({ minimumAge: 13 }))).toEqual([]);
    const asking = WizardConfigSchema.parse({
      ...rawDefaultConfig(),
      ageScreen: { minimumAge: 13 },
      steps: [rawDefaultConfig().steps[1], ...rawDefaultConfig().steps.slice(1)],
    });
    expect(checkConfigSemantics(asking).filter((problem) => problem.path.startsWith('steps[0].') && problem.message.includes('age screen'))).not.toEqual([]);
  });
});
