import defaultConfigJson from '../../config/wizard.json';
import { parseWizardConfig, type WizardConfig } from '../../src/shared/config';
import type { ApplicationPayload } from '../../src/shared/payload';

/** A deep copy of config/wizard.json as written, to modify in a test. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function rawDefaultConfig(): any {
  return structuredClone(defaultConfigJson);
}

/** The default configuration, parsed (throws when it is invalid). */
export function defaultConfig(): WizardConfig {
  const result = parseWizardConfig(rawDefaultConfig());
  if (!result.config) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

/** Form values of a complete, valid application for the default configuration. */
export function validFormValues(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
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
      whichProducts: ['Thinking Putty', 'Land of Dough'],
      campaign: { value: true, text: 'Brand A, Brand B' },
      dreamCampaign: 'A putty stop-motion series',
    },
    ...overrides,
  };
}

/** A valid payload (requirements §15), with top-level groups replaced by `overrides`. */
export function validPayload(overrides: Partial<ApplicationPayload> = {}): ApplicationPayload {
  return {
    personalInfo: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailAddress: 'ada@example.com',
      phone: { countryCode: '44', subscriber: '7400123456' },
      countryCode: 'GB',
    },
    platforms: {
      instagram: { handle: 'ada.makes', followers: '12000' },
      tiktok: { handle: '@adamakes', followers: '530' },
    },
    fields: {
      howFamiliar: 'Super-Fan',
      howOften: 'Most days',
      whichProducts: 'Thinking Putty, Land of Dough',
      'campaign.value': 'Yes',
      'campaign.text': 'Brand A, Brand B',
      dreamCampaign: 'A putty stop-motion series',
    },
    ...overrides,
  };
}

/** A valid payload for one applicant of the inbox tests: who, where, and at most one handle per platform. */
export function applicantPayload(applicant: {
  firstName: string;
  lastName: string;
  email: string;
  country?: string;
  instagram?: string;
  tiktok?: string;
  fields?: Record<string, string>;
  /** Followers of each platform given (default: Instagram 1200, TikTok 340). */
  followers?: string;
}): ApplicationPayload {
  const platforms: ApplicationPayload['platforms'] = {};
  if (applicant.instagram) platforms.instagram = { handle: applicant.instagram, followers: applicant.followers ?? '1200' };
  if (applicant.tiktok) platforms.tiktok = { handle: applicant.tiktok, followers: applicant.followers ?? '340' };
  return {
    personalInfo: {
      firstName: applicant.firstName,
      lastName: applicant.lastName,
      emailAddress: applicant.email,
      ...(applicant.country ? { countryCode: applicant.country } : {}),
    },
    platforms,
    fields: applicant.fields ?? { howFamiliar: 'Super-Fan', dreamCampaign: 'A putty castle' },
  };
}

/**
 * The answers the default page requires that an {@link applicantPayload} may leave out (the phone,
 * the country, both survey selects, the dream campaign, one platform), filled in where missing, so
 * the payload passes the page's rules when it is sent over HTTP. What is given is kept.
 */
export function completeForDefaultPage(payload: ApplicationPayload): ApplicationPayload {
  const valid = validPayload();
  return {
    personalInfo: { phone: valid.personalInfo.phone, countryCode: valid.personalInfo.countryCode, ...payload.personalInfo },
    platforms: Object.keys(payload.platforms ?? {}).length > 0 ? payload.platforms : { instagram: valid.platforms!.instagram },
    fields: { howFamiliar: valid.fields!.howFamiliar!, howOften: valid.fields!.howOften!, dreamCampaign: valid.fields!.dreamCampaign!, ...payload.fields },
  };
}
