import { describe, expect, it } from 'vitest';
import { defaultConfig, rawDefaultConfig as rawDefault, validFormValues } from '../../tests/factories/application';
import { parseWizardConfig } from './config';
import { conditionHolds } from './conditions';
import { DEFAULT_MESSAGES, resolveMessages } from './messages';
import { PLATFORM_FILLED_PATH } from './blocks/platforms';
import { validateTargets, validationTargets } from './validation';

const config = defaultConfig();
const messages = resolveMessages(undefined);
const validate = (values: Record<string, unknown>, step?: number) => validateTargets(validationTargets(config, step), values, messages);
const merge = (group: 'personalInfo' | 'fields', patch: Record<string, unknown>) => {
  const values = validFormValues();
  return { ...values, [group]: { ...(values[group] as object), ...patch } };
};

describe('validation of the default configuration (requirements §5)', () => {
  it('a complete application is valid', () => {
    expect(validate(validFormValues())).toEqual({});
  });

  it('step 0 asks nothing; step 1 asks personal info and platforms; step 2 the survey', () => {
    expect(validationTargets(config, 0)).toEqual([]);
    const step1 = validationTargets(config, 1).map((t) => t.path);
    expect(step1).toEqual(
      expect.arrayContaining(['personalInfo.firstName', 'personalInfo.phone.subscriber', 'platforms.instagram.handle', PLATFORM_FILLED_PATH]),
    );
    expect(validationTargets(config, 2).map((t) => t.path)).toEqual(
      expect.arrayContaining(['fields.howFamiliar', 'fields.howOften', 'fields.whichProducts', 'fields.campaign.text', 'fields.dreamCampaign']),
    );
  });

  it.each([
    ['personalInfo.firstName', 'firstName'],
    ['personalInfo.lastName', 'lastName'],
    ['personalInfo.emailAddress', 'emailAddress'],
    ['personalInfo.countryCode', 'countryCode'],
  ])('%s is required', (path, key) => {
    expect(validate(merge('personalInfo', { [key]: '' }))[path]).toBe(DEFAULT_MESSAGES.required);
  });

  it.each(['howFamiliar', 'howOften', 'dreamCampaign'])('fields.%s is required', (key) => {
    expect(validate(merge('fields', { [key]: '' }))[`fields.${key}`]).toBe(DEFAULT_MESSAGES.required);
  });

  it('whitespace-only text is refused: it is sent trimmed, so it reads as empty on both sides', () => {
    expect(validate(merge('personalInfo', { firstName: '   ' }))['personalInfo.firstName']).toBe(DEFAULT_MESSAGES.required);
    expect(validate(merge('fields', { dreamCampaign: ' \n ' }))['fields.dreamCampaign']).toBe(DEFAULT_MESSAGES.required);
  });

  it('a handle with the space a phone keyboard adds, and followers as copied (12,000), are accepted', () => {
    expect(validate({ ...validFormValues(), platforms: { instagram: { handle: 'ada.makes ', followers: '12,000' } } })).toEqual({});
    for (const followers of ['12.000', '12 000', "12'000", ' 12000 ']) {
      expect(validate({ ...validFormValues(), platforms: { instagram: { handle: 'ada', followers } } })).toEqual({});
    }
    for (const followers of ['12k', '1.2M', '12000+']) {
      expect(validate({ ...validFormValues(), platforms: { instagram: { handle: 'ada', followers } } })['platforms.instagram.followers']).toBe(
        DEFAULT_MESSAGES.followers,
      );
    }
  });

  it("control characters, lone surrogates and noncharacters are refused with the server's message; answers keep tab and line breaks", () => {
    for (const firstName of ['A\u0000da', 'A\tda', 'Ada\ud800', 'Ada\uffff']) {
      expect(validate(merge('personalInfo', { firstName }))['personalInfo.firstName']).toBe(DEFAULT_MESSAGES.plainText);
    }
    expect(validate(merge('fields', { dreamCampaign: 'Putty\u0007' }))['fields.dreamCampaign']).toBe(DEFAULT_MESSAGES.plainText);
    expect(validate(merge('fields', { dreamCampaign: 'one\ttwo\nthree 🧪' }))['fields.dreamCampaign']).toBeUndefined();
  });

  it('email must be an address', () => {
    expect(validate(merge('personalInfo', { emailAddress: 'ada@' }))['personalInfo.emailAddress']).toBe(DEFAULT_MESSAGES.email);
  });

  it('phone number is digits only and both phone parts are required here', () => {
    expect(validate(merge('personalInfo', { phone: { countryCode: '1', subscriber: '55a' } }))['personalInfo.phone.subscriber']).toBe(DEFAULT_MESSAGES.phone);
    const errors = validate(merge('personalInfo', { phone: { countryCode: '', subscriber: '' } }));
    expect(errors['personalInfo.phone.countryCode']).toBe(DEFAULT_MESSAGES.required);
    expect(errors['personalInfo.phone.subscriber']).toBe(DEFAULT_MESSAGES.required);
  });

  it('a calling code becomes required when a number is entered, and vice versa, where the phone is optional', () => {
    const optional = parseWizardConfig({ ...rawDefault(), formItems: [] }).config!;
    const check = (phone: object) => validateTargets(validationTargets(optional, 1), merge('personalInfo', { phone }), messages);
    expect(check({ countryCode: '', subscriber: '' })['personalInfo.phone.subscriber']).toBeUndefined();
    expect(check({ countryCode: '', subscriber: '2025550123' })['personalInfo.phone.countryCode']).toBe(DEFAULT_MESSAGES.required);
    expect(check({ countryCode: '44', subscriber: '' })['personalInfo.phone.subscriber']).toBe(DEFAULT_MESSAGES.required);
    // The default calling code alone does not make the number required.
    expect(check({ countryCode: '1', subscriber: '' })['personalInfo.phone.subscriber']).toBeUndefined();
    // Nor the country's own, which the calling code follows by itself (requirements §4).
    const inCountry = (countryCode: string, phone: object) =>
      validateTargets(validationTargets(optional, 1), merge('personalInfo', { countryCode, phone }), messages)['personalInfo.phone.subscriber'];
    expect(inCountry('GB', { countryCode: '44', subscriber: '' })).toBeUndefined();
    expect(inCountry('DO', { countryCode: '1-829', subscriber: '' })).toBeUndefined();
    expect(inCountry('FR', { countryCode: '44', subscriber: '' })).toBe(DEFAULT_MESSAGES.required);
  });

  it('handles must not be URLs or contain spaces; followers digits only', () => {
    const errors = validate({ ...validFormValues(), platforms: { instagram: { handle: 'https://instagram.com/ada', followers: '12k' } } });
    expect(errors['platforms.instagram.handle']).toBe('Enter your username only');
    expect(errors['platforms.instagram.followers']).toBe('Enter a valid number');
    // The platform is filled in, wrongly: only its own fields say so.
    expect(errors[PLATFORM_FILLED_PATH]).toBeUndefined();
  });

  it('at least one platform is required', () => {
    expect(validate({ ...validFormValues(), platforms: {} })[PLATFORM_FILLED_PATH]).toBe('Fill at least one platform');
    expect(validate({ ...validFormValues(), platforms: { tiktok: { handle: '@ada', followers: '5' } } })[PLATFORM_FILLED_PATH]).toBeUndefined();
  });

  it('a platform with a handle needs followers (required, not "Enter a valid number"), and followers need a handle', () => {
    expect(validate({ ...validFormValues(), platforms: { instagram: { handle: 'ada' } } })['platforms.instagram.followers']).toBe(DEFAULT_MESSAGES.required);
    expect(validate({ ...validFormValues(), platforms: { instagram: { followers: '10' } } })['platforms.instagram.handle']).toBe(DEFAULT_MESSAGES.required);
  });

  it('required platforms: the one, or all, must be valid', () => {
    const raw = rawDefault();
    const block = raw.steps[1].blocks[2];
    block.data.platforms[1].required = true;
    const one = parseWizardConfig(raw).config!;
    const values = validFormValues();
    expect(validateTargets(validationTargets(one), values, messages)[PLATFORM_FILLED_PATH]).toBe('Fill the required platform');
    block.data.platforms[2].required = true;
    const two = parseWizardConfig(raw).config!;
    expect(validateTargets(validationTargets(two), values, messages)[PLATFORM_FILLED_PATH]).toBe('Fill all required platforms');
    const filled = { ...values, platforms: { youtube: { handle: '@ada', followers: '1' }, tiktok: { handle: '@ada', followers: '2' } } };
    expect(validateTargets(validationTargets(two), filled, messages)[PLATFORM_FILLED_PATH]).toBeUndefined();
  });

  it('the campaign text box is required only while the answer is Yes', () => {
    expect(validate(merge('fields', { campaign: { value: true, text: '' } }))['fields.campaign.text']).toBe(DEFAULT_MESSAGES.required);
    expect(validate(merge('fields', { campaign: { value: false, text: '' } }))['fields.campaign.text']).toBeUndefined();
    expect(validate(merge('fields', { campaign: { value: undefined, text: '' } }))['fields.campaign.text']).toBeUndefined();
  });

  it('the state is required for the US and Canada and not asked elsewhere', () => {
    expect(validate(merge('personalInfo', { countryCode: 'US', provinceCode: '' }))['personalInfo.provinceCode']).toBe(DEFAULT_MESSAGES.required);
    expect(validate(merge('personalInfo', { countryCode: 'CA', provinceCode: '' }))['personalInfo.provinceCode']).toBe(DEFAULT_MESSAGES.required);
    expect(validate(merge('personalInfo', { countryCode: 'GB', provinceCode: '' }))['personalInfo.provinceCode']).toBeUndefined();
  });

  it('a multi-select with maxLength refuses more picks', () => {
    const raw = rawDefault();
    raw.steps[2].blocks[3].data.maxLength = 1;
    const limited = parseWizardConfig(raw).config!;
    expect(validateTargets(validationTargets(limited), validFormValues(), messages)['fields.whichProducts']).toBe('Choose at most 1');
  });

  it('messages are overridden from configuration', () => {
    const french = resolveMessages({ required: 'Ce champ est obligatoire' });
    const errors = validateTargets(validationTargets(config), merge('personalInfo', { firstName: '' }), french);
    expect(errors['personalInfo.firstName']).toBe('Ce champ est obligatoire');
  });
});

describe('conditions (requirements §4)', () => {
  const values = { a: { b: 'US' }, yes: true, list: [] };
  it('equals, oneOf and filled', () => {
    expect(conditionHolds({ path: 'yes', equals: true }, values)).toBe(true);
    expect(conditionHolds({ path: 'yes', equals: false }, values)).toBe(false);
    expect(conditionHolds({ path: 'a.b', oneOf: ['US', 'CA'] }, values)).toBe(true);
    expect(conditionHolds({ path: 'a.b', oneOf: ['GB'] }, values)).toBe(false);
    expect(conditionHolds({ path: 'list', filled: true }, values)).toBe(false);
    expect(conditionHolds({ path: 'missing', filled: false }, values)).toBe(true);
    expect(conditionHolds(undefined, values)).toBe(true);
  });

  it('a disabled item is not validated while its condition is false', () => {
    const raw = rawDefault();
    raw.formItems.push({
      path: 'fields.howOften',
      validators: ['required'],
      showOnCondition: { path: 'fields.howFamiliar', equals: 'Super-Fan', effect: 'disable' },
    });
    raw.formItems = raw.formItems.filter((item: { path: string; showOnCondition?: unknown }) => item.path !== 'fields.howOften' || item.showOnCondition);
    const cfg = parseWizardConfig(raw).config!;
    const values = merge('fields', { howFamiliar: 'Unfamiliar', howOften: '' });
    expect(validateTargets(validationTargets(cfg), values, messages)['fields.howOften']).toBeUndefined();
    expect(validateTargets(validationTargets(cfg), merge('fields', { howOften: '' }), messages)['fields.howOften']).toBe(DEFAULT_MESSAGES.required);
  });
});
