import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../tests/factories/application';
import { applicantEmail, contentText, digestEmail, notificationEmail } from './content';

/** Directional overrides and isolates (Unicode Standard Annex #9) an applicant may type in a name. */
const OVERRIDE = '\u202E';
const ISOLATE = '\u2067';

describe('what a message says', () => {
  it('keeps direction controls typed in a name or a title out of the subject and the text, where they would turn the rest around', () => {
    const notification = notificationEmail({
      campaign: `Summer${ISOLATE} toys`,
      name: `Ada ${OVERRIDE}gnp.exe`,
      applicationUrl: 'https://inbox.example/admin/applications/1',
      unsubscribeUrl: 'https://inbox.example/unsubscribe/x',
      settingsUrl: 'https://inbox.example/admin/notifications',
    });
    expect(notification.subject).toBe('New application to Summer toys: Ada gnp.exe');
    expect(contentText(notification)).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);

    const config = { ...defaultConfig(), title: `Creators${OVERRIDE}` };
    const confirmation = applicantEmail({
      kind: 'confirmation',
      config,
      person: { firstName: `Ada${OVERRIDE}`, lastName: `${ISOLATE}Lovelace`, email: 'ada@example.com' },
      answers: [],
      publicUrl: 'https://apply.example',
    });
    expect(contentText(confirmation)).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
    expect(contentText(confirmation)).toContain('Ada');

    const digest = digestEmail({ pages: [{ title: `Toys${OVERRIDE}`, count: 2, url: 'https://inbox.example/admin/' }], unsubscribeUrl: 'u', settingsUrl: 's' });
    expect(contentText(digest)).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
  });

  it('keeps the joiners some scripts need in a name', () => {
    // Zero-width non-joiner and joiner (Persian, Devanagari) are formatting characters too, but no direction control.
    const content = notificationEmail({ campaign: 'Toys', name: 'می\u200Cخواهم क्\u200D', applicationUrl: 'a', unsubscribeUrl: 'u', settingsUrl: 's' });
    expect(content.subject).toContain('می\u200Cخواهم क्\u200D');
  });
});
