import { createHash } from 'node:crypto';
import type { WizardConfig } from '../shared/config';
import type { LabelledAnswer } from '../shared/admin';
import { GUARDIAN_CONSENT_PURPOSE, type ConsentRecord } from '../shared/consents';
import { blocksOf } from '../shared/form-values';
import { CONSENTS_GROUP } from '../shared/blocks/consent';
import { sanitizeConfigHtml } from '../shared/sanitize-html';

/** A page's consent, as the wizard shows it: its purpose, the label's HTML as served, required or not. */
export interface PageConsent {
  purpose: string;
  text: string;
  required: boolean;
}

const consentsByConfig = new WeakMap<WizardConfig, PageConsent[]>();

/** The consents a page asks, in its order (worked out once per configuration). */
export function pageConsents(config: WizardConfig): PageConsent[] {
  let consents = consentsByConfig.get(config);
  if (!consents) {
    consents = blocksOf(config).flatMap((block) =>
      // The text as the page serves it: sanitised (src/shared/sanitize-html.ts), as the applicant saw it.
      block.component === 'consent' ? [{ purpose: block.data.purpose, text: sanitizeConfigHtml(block.data.label), required: block.data.required }] : [],
    );
    consentsByConfig.set(config, consents);
  }
  return consents;
}

/** A consent record before its time is set (the application's arrival, set by the store). */
export type ConsentRecordDraft = Omit<ConsentRecord, 'at'>;

const hashesByConfig = new WeakMap<WizardConfig, Map<string, string>>();

/** The SHA-256 (hex) of each consent's text on a page, by purpose (worked out once per configuration). */
function hashesOf(config: WizardConfig): Map<string, string> {
  let hashes = hashesByConfig.get(config);
  if (!hashes) {
    hashes = new Map(pageConsents(config).map((consent) => [consent.purpose, createHash('sha256').update(consent.text, 'utf8').digest('hex')]));
    hashesByConfig.set(config, hashes);
  }
  return hashes;
}

/**
 * The consent records of an application checked against `config` (requirements §21): one per consent
 * the page asks, given or not, with the exact text served (the label's HTML, sanitised as the page
 * serves it) and its SHA-256, the page version, the language and the privacy notice's version
 * (`privacyVersion`). Undefined on a page without consents (nothing is stored for it).
 * @param payload - the checked payload (`consents.{purpose}` true where given).
 * @param pageVersion - the stored page's version the application answered; undefined for the default page.
 */
export function consentRecords(
  config: WizardConfig,
  payload: { consents?: Record<string, boolean> | undefined },
  pageVersion: number | undefined,
): ConsentRecordDraft[] | undefined {
  const consents = pageConsents(config);
  if (consents.length === 0) return undefined;
  const hashes = hashesOf(config);
  return consents.map(({ purpose, text }) => ({
    purpose,
    given: payload.consents?.[purpose] === true,
    text,
    sha256: hashes.get(purpose)!,
    pageVersion: pageVersion ?? null,
    lang: config.lang,
    privacyVersion: config.privacyVersion ?? null,
    source: 'application' as const,
  }));
}

/** What an answer to consent `purpose` reads once withdrawn (`at`: ISO-8601 UTC), in the inbox, the CSV and a person's export (requirements §21). */
export function withdrawnAnswer(at: string): string {
  return `Withdrawn ${at}`;
}

/** The consent key an answer column has (`consents.{purpose}`), or undefined for another answer. */
export function consentPurposeOf(key: string): string | undefined {
  const prefix = `${CONSENTS_GROUP}.`;
  return key.startsWith(prefix) ? key.slice(prefix.length) : undefined;
}

/**
 * `answers` with each consent withdrawn since, as `records` tell, reading {@link withdrawnAnswer}
 * in place of the Yes it was given with (the records keep both).
 */
export function withWithdrawals(answers: LabelledAnswer[], records: readonly ConsentRecord[]): LabelledAnswer[] {
  const withdrawn = new Map(records.filter((record) => record.source === 'withdrawal').map((record) => [record.purpose, record.at]));
  if (withdrawn.size === 0) return answers;
  return answers.map((answer) => {
    const purpose = consentPurposeOf(answer.key);
    const at = purpose === undefined ? undefined : withdrawn.get(purpose);
    return at === undefined ? answer : { ...answer, text: withdrawnAnswer(at) };
  });
}

/**
 * The record of a parent's or guardian's consent to a minor's application (requirements §20; GDPR
 * Article 7(1) and 8(2): the brand can show that the holder of parental responsibility consented):
 * the exact text their page showed them (`shown`, HTML as sent) and its SHA-256, the page version
 * the application answered, the page's language and privacy notice's version, and when.
 * @param at - when they consented (ISO-8601 UTC).
 */
export function guardianConsentRecord(config: WizardConfig, pageVersion: number | undefined, shown: string, at: string): ConsentRecord {
  return {
    purpose: GUARDIAN_CONSENT_PURPOSE,
    given: true,
    text: shown,
    sha256: createHash('sha256').update(shown, 'utf8').digest('hex'),
    pageVersion: pageVersion ?? null,
    lang: config.lang,
    privacyVersion: config.privacyVersion ?? null,
    at,
    source: 'guardian',
  };
}
