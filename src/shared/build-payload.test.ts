import { describe, expect, it } from 'vitest';
import { defaultConfig, rawDefaultConfig, validFormValues, validPayload } from '../../tests/factories/application';
import { buildPayload, cleanPayload } from './build-payload';
import { parseWizardConfig } from './config';
import { parseApplicationPayload } from './payload';
import { PLATFORM_NAMES } from './platforms';

const config = defaultConfig();
/** The default page asking for every platform (it asks for three). */
const everyPlatform = (() => {
  const raw = rawDefaultConfig();
  raw.steps[1].blocks.find((block: { component: string }) => block.component === 'platforms').data.platforms = PLATFORM_NAMES.map((name) => ({ name }));
  return parseWizardConfig(raw).config!;
})();

describe('buildPayload (requirements §7, requirements §15)', () => {
  it('builds the requirements §15 shape, flattening fields', () => {
    expect(buildPayload(config, validFormValues())).toEqual({
      personalInfo: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        emailAddress: 'ada@example.com',
        phone: { countryCode: '1', subscriber: '2025550123' },
        countryCode: 'US',
        provinceCode: 'NY',
      },
      platforms: { instagram: { handle: 'ada.makes', followers: '12000' } },
      fields: {
        howFamiliar: 'Super-Fan',
        howOften: 'Most days',
        whichProducts: 'Thinking Putty, Land of Dough',
        'campaign.value': 'Yes',
        'campaign.text': 'Brand A, Brand B',
        dreamCampaign: 'A putty stop-motion series',
      },
    });
  });

  it('the built payload passes the server schema', () => {
    expect(parseApplicationPayload(buildPayload(config, validFormValues())).errors).toBeUndefined();
  });

  it('drops an empty phone', () => {
    const values = validFormValues();
    (values.personalInfo as Record<string, unknown>).phone = { countryCode: '1', subscriber: '' };
    expect(buildPayload(config, values).personalInfo).not.toHaveProperty('phone');
  });

  it('keeps a row with only an audience (the server then says "required" as the wizard does), drops empty rows', () => {
    const values = validFormValues({
      platforms: {
        instagram: { handle: '', followers: '10' },
        tiktok: { handle: '@ada', followers: '' },
        website: { url: '', monthlyTraffic: '500' },
        twitch: { handle: ' ', followers: '' },
      },
    });
    expect(buildPayload(everyPlatform, values).platforms).toEqual({
      instagram: { followers: '10' },
      tiktok: { handle: '@ada' },
      website: { monthlyTraffic: '500' },
    });
  });

  it('booleans become Yes / No; the text of a No answer is not sent', () => {
    const values = validFormValues();
    (values.fields as Record<string, unknown>).campaign = { value: false, text: 'typed before switching to No' };
    const { fields } = buildPayload(config, values);
    expect(fields).toMatchObject({ 'campaign.value': 'No' });
    expect(fields).not.toHaveProperty(['campaign.text']);
  });

  it('a state left from another country is not sent', () => {
    const values = validFormValues();
    Object.assign(values.personalInfo as object, { countryCode: 'GB', provinceCode: 'NY' });
    expect(buildPayload(config, values).personalInfo).not.toHaveProperty('provinceCode');
  });

  it('LinkedIn, Threads and Reddit travel as flattened single.* fields', () => {
    const values = validFormValues();
    (values.fields as Record<string, unknown>).single = {
      linkedin: { handle: 'ada-l', followers: '300' },
      reddit: { handle: '', followers: '5' },
    };
    const { fields } = buildPayload(everyPlatform, values);
    expect(fields).toMatchObject({ 'single.linkedin.handle': 'ada-l', 'single.linkedin.followers': '300', 'single.reddit.followers': '5' });
    expect(fields).not.toHaveProperty('single.reddit.handle');
  });

  it('sends only what the page asks: answers of a draft saved before the page changed stay behind', () => {
    const values = validFormValues();
    (values.personalInfo as Record<string, unknown>).company = 'Putty Co';
    (values.platforms as Record<string, unknown>).twitch = { handle: 'ada', followers: '5' };
    (values.fields as Record<string, unknown>).removedQuestion = 'an old answer';
    const payload = buildPayload(config, values);
    expect(payload.personalInfo).not.toHaveProperty('company');
    expect(payload.platforms).not.toHaveProperty('twitch');
    expect(payload.fields).not.toHaveProperty('removedQuestion');
    expect(buildPayload(config, validFormValues())).toEqual(payload);
  });

  it('never sends the agreement flag or the platform-filled flag; trims text', () => {
    const values = validFormValues({ agreement: true, platformFilled: true });
    (values.fields as Record<string, unknown>).agreement = true;
    (values.personalInfo as Record<string, unknown>).firstName = '  Ada ';
    const payload = buildPayload(config, values);
    expect(JSON.stringify(payload)).not.toMatch(/agreement|platformFilled/);
    expect(payload.personalInfo.firstName).toBe('Ada');
  });

  it('empty answers are left out', () => {
    const values = validFormValues();
    Object.assign(values.fields as object, { whichProducts: [], dreamCampaign: '  ' });
    const { fields } = buildPayload(config, values);
    expect(fields).not.toHaveProperty('whichProducts');
    expect(fields).not.toHaveProperty('dreamCampaign');
  });

  it('sends a calling code other than the default without a number, so the server asks for the number too', () => {
    const values = validFormValues();
    (values.personalInfo as Record<string, unknown>).phone = { countryCode: '44', subscriber: ' ' };
    expect(buildPayload(config, values).personalInfo.phone).toEqual({ countryCode: '44', subscriber: '' });
    // The country's own calling code, which follows the country by itself, is no phone given.
    Object.assign(values.personalInfo as object, { countryCode: 'GB' });
    expect(buildPayload(config, values).personalInfo).not.toHaveProperty('phone');
  });

  it('sends counts as creators copy them without their grouping separators, and the e-mail domain in lower case', () => {
    const values = validFormValues({
      platforms: { instagram: { handle: 'ada.makes ', followers: ' 12,000' }, tiktok: { handle: '@ada', followers: '1.200.000' } },
    });
    (values.personalInfo as Record<string, unknown>).emailAddress = ' Ada.Lovelace@Example.COM ';
    const payload = buildPayload(config, values);
    expect(payload.platforms).toEqual({ instagram: { handle: 'ada.makes', followers: '12000' }, tiktok: { handle: '@ada', followers: '1200000' } });
    expect(payload.personalInfo.emailAddress).toBe('Ada.Lovelace@example.com');
  });
});

describe('cleanPayload (values clean on both sides)', () => {
  it('trims, removes grouping separators of counts, lower-cases the domain; the same object back when clean', () => {
    const clean = validPayload();
    expect(cleanPayload(clean)).toBe(clean);
    expect(
      cleanPayload({
        personalInfo: { ...clean.personalInfo, emailAddress: 'ada@EXAMPLE.com', phone: { countryCode: '44', subscriber: ' 7400123456 ' } },
        platforms: { instagram: { handle: ' ada ', followers: "12'000" }, website: { url: 'ada.dev', monthlyTraffic: '12 000' } },
        fields: { 'single.linkedin.followers': '12\u202f000', dreamCampaign: ' x ', howFamiliar: 'Super-Fan' },
      }),
    ).toEqual({
      personalInfo: { ...clean.personalInfo, emailAddress: 'ada@example.com', phone: { countryCode: '44', subscriber: '7400123456' } },
      platforms: { instagram: { handle: 'ada', followers: '12000' }, website: { url: 'ada.dev', monthlyTraffic: '12000' } },
      fields: { 'single.linkedin.followers': '12000', dreamCampaign: 'x', howFamiliar: 'Super-Fan' },
    });
    for (const count of ['12k', '1.2M', '12000+', '1,2', '12,00', '12,000.5']) {
      expect(cleanPayload({ platforms: { instagram: { handle: 'a', followers: count } } })).toEqual({
        platforms: { instagram: { handle: 'a', followers: count } },
      });
    }
    for (const odd of [null, [], 'x', { personalInfo: 'x' }]) expect(cleanPayload(odd)).toEqual(odd);
  });

  it('an answer of spaces only is no answer: dropped, as the wizard never sends it; the phone keeps its parts', () => {
    const clean = validPayload();
    expect(
      cleanPayload({
        personalInfo: { ...clean.personalInfo, company: '   ', phone: { countryCode: '44', subscriber: ' ' } },
        platforms: { instagram: { handle: 'ada', followers: '  ' } },
        fields: { dreamCampaign: ' \t ', howFamiliar: 'Super-Fan' },
      }),
    ).toEqual({
      personalInfo: { ...clean.personalInfo, phone: { countryCode: '44', subscriber: '' } },
      platforms: { instagram: { handle: 'ada' } },
      fields: { howFamiliar: 'Super-Fan' },
    });
  });

  it('counts lose their leading zeros (012000 is 12000 followers), a zero stays 0', () => {
    const cleaned = (followers: string) =>
      (cleanPayload({ platforms: { instagram: { handle: 'a', followers } } }) as { platforms: { instagram: { followers: string } } }).platforms.instagram
        .followers;
    expect(cleaned('012000')).toBe('12000');
    expect(cleaned('012,000')).toBe('12000');
    expect(cleaned('12\u2019000')).toBe('12000');
    expect(cleaned('000')).toBe('0');
    expect(cleaned('0')).toBe('0');
    expect(cleaned('0x10')).toBe('0x10');
  });
});
