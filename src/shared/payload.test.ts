import { describe, expect, it } from 'vitest';
import { validPayload } from '../../tests/factories/application';
import { parseApplicationPayload } from './payload';

const pathsOf = (input: unknown) => parseApplicationPayload(input).errors?.map((error) => error.path) ?? [];

describe('ApplicationPayloadSchema (requirements §15)', () => {
  it('accepts the requirements §15 example', () => {
    expect(parseApplicationPayload(validPayload()).errors).toBeUndefined();
  });

  it('requires first name, last name and e-mail, with their paths', () => {
    const payload = validPayload({ personalInfo: { firstName: ' ', lastName: '', emailAddress: 'nope' } });
    expect(pathsOf(payload)).toEqual(['personalInfo.firstName', 'personalInfo.lastName', 'personalInfo.emailAddress']);
  });

  it('applies the requirements §5 messages', () => {
    const result = parseApplicationPayload(validPayload({ platforms: { instagram: { handle: 'https://instagram.com/ada', followers: '1k' } } }));
    expect(result.errors).toEqual([
      { path: 'platforms.instagram.handle', message: 'Enter your username only' },
      { path: 'platforms.instagram.followers', message: 'Enter a valid number' },
    ]);
  });

  it('refuses unknown keys, wrong types and over-long strings', () => {
    expect(pathsOf({ ...validPayload(), extra: 1 })).toEqual(['(body)']);
    expect(pathsOf(validPayload({ platforms: { myspace: { handle: 'a' } } as never }))).toEqual(['platforms']);
    expect(pathsOf(validPayload({ fields: { dreamCampaign: 5 } as never }))).toEqual(['fields.dreamCampaign']);
    expect(pathsOf(validPayload({ fields: { dreamCampaign: 'x'.repeat(5001) } }))).toEqual(['fields.dreamCampaign']);
    expect(pathsOf('a string')).toEqual(['(body)']);
    expect(pathsOf(null)).toEqual(['(body)']);
  });

  it('checks calling codes, ISO alpha-2 and the website URL', () => {
    expect(pathsOf(validPayload({ personalInfo: { ...validPayload().personalInfo, phone: { countryCode: '+44', subscriber: '1' } } }))).toEqual([
      'personalInfo.phone.countryCode',
    ]);
    expect(pathsOf(validPayload({ personalInfo: { ...validPayload().personalInfo, countryCode: 'GBR' } }))).toEqual(['personalInfo.countryCode']);
    expect(pathsOf(validPayload({ platforms: { website: { url: 'not a url' } } }))).toEqual(['platforms.website.url']);
    expect(pathsOf(validPayload({ personalInfo: { ...validPayload().personalInfo, phone: { countryCode: '1-684', subscriber: '6335550100' } } }))).toEqual([]);
  });
});
