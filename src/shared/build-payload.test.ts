import { describe, expect, it } from 'vitest';
import { defaultConfig, validFormValues } from '../../tests/factories/application';
import { buildPayload } from './build-payload';
import { parseApplicationPayload } from './payload';

const config = defaultConfig();

describe('buildPayload (SPEC §7, DESIGN §6)', () => {
  it('builds the DESIGN §6 shape, flattening fields', () => {
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

  it('drops platforms without a handle, and website without url', () => {
    const values = validFormValues({
      platforms: {
        instagram: { handle: '', followers: '10' },
        tiktok: { handle: '@ada', followers: '' },
        website: { url: '', monthlyTraffic: '500' },
      },
    });
    expect(buildPayload(config, values).platforms).toEqual({ tiktok: { handle: '@ada' } });
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

  it('LinkedIn, Threads and Reddit travel as flattened single.* fields, dropped without a handle', () => {
    const values = validFormValues();
    (values.fields as Record<string, unknown>).single = {
      linkedin: { handle: 'ada-l', followers: '300' },
      reddit: { handle: '', followers: '5' },
    };
    const { fields } = buildPayload(config, values);
    expect(fields).toMatchObject({ 'single.linkedin.handle': 'ada-l', 'single.linkedin.followers': '300' });
    expect(Object.keys(fields ?? {}).some((key) => key.startsWith('single.reddit'))).toBe(false);
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
});
