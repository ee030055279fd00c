import { useId, useState } from 'react';
import { APPLICANT_EMAILS, EMAIL_PLACEHOLDERS, defaultEmailTexts, type ApplicantEmail } from '../../shared/emails';
import { emailPreviewPath } from '../features/email/api';
import { asText, isObject } from './draft';
import { CheckboxField, FieldGroup, TextField, useEditor } from './fields';

/** Each applicant message as the builder names it. */
const EMAIL_NAMES: Record<ApplicantEmail, { legend: string; send: string }> = {
  confirmation: { legend: 'Confirmation, once the application is stored', send: 'Send a confirmation' },
  accepted: { legend: 'When the team accepts the application', send: 'Send an e-mail on acceptance (5 minutes after it, unless undone)' },
  declined: { legend: 'When the team declines the application', send: 'Send an e-mail on a decline (5 minutes after it, unless undone)' },
};

const PLACEHOLDER_HINT = `You may use ${EMAIL_PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}. Left empty, the text shown greyed is sent, in the page's language.`;

/**
 * The builder's e-mail to applicants (docs/email.md): the privacy notice they link, and for the
 * confirmation and each decision whether it is sent, its subject and its body (the page's
 * language's defaults shown as placeholders), and a preview of each as a creator receives it,
 * made by the server from the saved draft (loaded again after each save).
 * @param saved - whether the draft shown is the one saved (autosave has nothing pending).
 */
export function EmailSettings({ pageId, saved }: { pageId: string; saved: boolean }) {
  const { draft } = useEditor();
  const config = isObject(draft) ? draft : {};
  const defaults = defaultEmailTexts(asText(config.lang) || 'en');
  const [kind, setKind] = useState<ApplicantEmail>('confirmation');
  const id = useId();
  // The frame shows the saved draft: loaded again once what it reads is saved changed.
  const reads = JSON.stringify([config.emails, config.title, config.lang, config.privacyUrl, config.footerLinks]);
  const [shown, setShown] = useState({ reads, times: 0 });
  if (saved && reads !== shown.reads) setShown({ reads, times: shown.times + 1 });
  return (
    <fieldset className="group email-settings">
      <legend>E-mail to applicants</legend>
      <p className="hint">What is set here is sent once the page is published; the preview shows the saved draft.</p>
      <TextField
        path={['privacyUrl']}
        label="Privacy notice address (optional)"
        optional
        type="url"
        hint="Linked from every e-mail to an applicant; left empty, a footer link that names privacy is."
      />
      {APPLICANT_EMAILS.map((name) => (
        <FieldGroup key={name} path={['emails', name]} legend={EMAIL_NAMES[name].legend}>
          <CheckboxField path={['emails', name, 'enabled']} label={EMAIL_NAMES[name].send} defaultValue={name === 'confirmation'} />
          <TextField path={['emails', name, 'subject']} label="Subject" optional placeholder={defaults[name].subject} hint={PLACEHOLDER_HINT} />
          <TextField
            path={['emails', name, 'body']}
            label="Text"
            optional
            multiline
            rows={6}
            placeholder={defaults[name].body}
            hint="A blank line starts a paragraph."
          />
        </FieldGroup>
      ))}
      <div className="email-preview">
        <label htmlFor={`${id}-kind`}>E-mail to preview</label>
        <select id={`${id}-kind`} value={kind} onChange={(event) => setKind(event.target.value as ApplicantEmail)}>
          {APPLICANT_EMAILS.map((name) => (
            <option key={name} value={name}>
              {EMAIL_NAMES[name].legend}
            </option>
          ))}
        </select>
        <p className="hint">As a creator named Alex Example receives it, from the saved draft.</p>
        <iframe key={`${kind}-${shown.times}`} title="E-mail preview" src={emailPreviewPath(pageId, kind)} className="email-frame" sandbox="" />
      </div>
    </fieldset>
  );
}
