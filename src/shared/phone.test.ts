import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, validFormValues } from '../../tests/factories/application';
import { buildPayload } from './build-payload';
import { DEFAULT_MESSAGES } from './messages';
import { isValidPhone, loadPhoneNumbers, phoneCountry, phoneParts, toE164 } from './phone';
import { validateTargets, validationTargets } from './validation';

beforeAll(() => loadPhoneNumbers());

describe('phone numbers by libphonenumber-js', () => {
  it('a pasted international number sets the calling code and keeps the national number', () => {
    expect(phoneParts('1', '+44 7400 123456')).toEqual({ callingCode: '44', subscriber: '7400123456' });
    expect(phoneParts('1', '0044 7400 123456')).toEqual({ callingCode: '44', subscriber: '7400123456' });
    expect(phoneParts('1-684', '+1 684 555 1234')).toEqual({ callingCode: '1-684', subscriber: '6845551234' });
    expect(phoneParts('44', '+1 202 555 0123')).toEqual({ callingCode: '1', subscriber: '2025550123' });
  });

  it("a number's own country among those that share its calling code, else the code's main country", () => {
    expect(phoneCountry('44', '7400123456')).toBe('GB');
    expect(phoneCountry('1', '4165550123')).toBe('CA');
    expect(phoneCountry('1', '2025550123')).toBe('US');
    expect(phoneCountry('44', '')).toBe('GB');
    expect(phoneCountry('7', '7012345678')).toBe('KZ');
    expect(phoneCountry('999', '123')).toBeUndefined();
  });

  it('spaces, dots, brackets, hyphens and the national trunk prefix go', () => {
    expect(phoneParts('44', '07400 123456')).toEqual({ callingCode: '44', subscriber: '7400123456' });
    expect(phoneParts('1', '(202) 555-0123')).toEqual({ callingCode: '1', subscriber: '2025550123' });
    expect(phoneParts('33', '06.12.34.56.78')).toEqual({ callingCode: '33', subscriber: '612345678' });
    expect(phoneParts('1-684', '555 1234')).toEqual({ callingCode: '1-684', subscriber: '5551234' });
  });

  it("a number its calling code's numbering plan does not have is not a phone number", () => {
    expect(isValidPhone('44', '7400123456')).toBe(true);
    expect(isValidPhone('1', '2025550123')).toBe(true);
    expect(isValidPhone('44', '1')).toBe(false);
    expect(isValidPhone('44', '1234567890123456')).toBe(false);
    expect(isValidPhone('1', '12a')).toBe(false);
    // The numbering plan, not the length only (outside review): a French mobile left under +1, zeros.
    expect(isValidPhone('1', '0612345678')).toBe(false);
    expect(isValidPhone('44', '0000000000')).toBe(false);
    expect(isValidPhone('33', '612345678')).toBe(true);
    // A NANP area's code takes that area's numbers only.
    expect(isValidPhone('1-684', '6846330000')).toBe(true);
    expect(isValidPhone('1-684', '4165550123')).toBe(false);
  });

  it('for NANP area codes the 7- and the 10-digit forms give one E.164 number', () => {
    expect(toE164('1-684', '5551234')).toBe('+16845551234');
    expect(toE164('1-684', '6845551234')).toBe('+16845551234');
    expect(isValidPhone('1-684', '5551234')).toBe(true);
    expect(toE164('44', '7400123456')).toBe('+447400123456');
  });

  it("the wizard says 'Enter a valid phone number' for 1 and for 16 digits, and sends what it judged", () => {
    const config = defaultConfig();
    const validate = (subscriber: string, countryCode = '44') =>
      validateTargets(
        validationTargets(config),
        validFormValues({ personalInfo: { ...(validFormValues().personalInfo as object), phone: { countryCode, subscriber } } }),
        config.messages,
      )['personalInfo.phone.subscriber'];
    expect(validate('1')).toBe(DEFAULT_MESSAGES.phone);
    expect(validate('1234567890123456')).toBe(DEFAULT_MESSAGES.phone);
    expect(validate('07400 123456')).toBeUndefined();
    expect(validate('+44 7400 123456', '1')).toBeUndefined();
    const values = validFormValues({
      personalInfo: { ...(validFormValues().personalInfo as object), phone: { countryCode: '1', subscriber: '0044 7400 123456' } },
    });
    expect(buildPayload(config, values).personalInfo.phone).toEqual({ countryCode: '44', subscriber: '7400123456' });
  });
});
