import { useId, useRef, useState } from 'react';
import { DEFAULT_THEME } from '../../shared/config-checks';
import { DEFAULT_RETENTION, MAX_RETENTION_MONTHS } from '../../shared/retention';
import { announce } from '../announcer';
import { asArray, asText, fieldId, isObject, jsonPath, type DraftPath } from './draft';
import { AgeScreenSettings } from './age-screen-settings';
import { CheckboxField, ColourField, FieldGroup, FieldNotes, NumberField, SelectField, TextField, useEditor, useField } from './fields';
import { ListControls } from './list-controls';
import { EmailSettings } from './email-settings';
import { failureText } from '../api';
import { coverOf, useUploadImage } from '../features/pages/api';

/**
 * The page's id, shown and never edited (decision 031): its applications, uploads, e-mails and
 * links are kept under it from the moment the page exists, so it is fixed then. A draft whose
 * `pageId` was changed in the JSON view shows its problem here.
 */
function PageIdField({ pageId }: { pageId: string }) {
  const field = useField(['pageId']);
  const hintId = `${field.id}-hint`;
  return (
    <div className="field">
      <label htmlFor={field.id}>Page id</label>
      <input
        id={field.id}
        value={asText(field.value) || pageId}
        readOnly
        aria-invalid={field.invalid || undefined}
        aria-describedby={[field.invalid ? field.problemId : '', hintId].filter(Boolean).join(' ')}
      />
      <FieldNotes hint="Fixed once the page exists: its applications, uploads and links are kept under it." hintId={hintId} field={field} />
    </div>
  );
}

/**
 * The "Page" tab of the builder: what the whole page shows besides its steps: title,
 * language, address of the sign-up page, logo, theme tokens, cover images (uploaded or by URL),
 * buttons, footer links, the e-mail to applicants and the wizard's page-wide settings.
 */
export function PageSettings({ pageId, saved }: { pageId: string; saved: boolean }) {
  const { draft } = useEditor();
  const config = isObject(draft) ? draft : {};
  return (
    <div className="settings">
      <fieldset className="group">
        <legend>The page</legend>
        <TextField path={['title']} label="Title" hint="The browser tab's title and the page's name in search results." />
        <TextField
          path={['description']}
          label="Description (optional)"
          optional
          multiline
          rows={2}
          hint="What search results show under the title; at most 300 characters."
        />
        <TextField path={['lang']} label="Language" hint="A BCP 47 tag such as en, fr or pt-BR: the page's language for screen readers and spelling." />
        <PageIdField pageId={pageId} />
        <TextField
          path={['signUpUrl']}
          label="Sign-up page address"
          type="url"
          hint="Where the last step's button takes the creator: an https:// address or a path starting with /."
        />
        <TextField
          path={['requestUrl']}
          label="Submit address (optional)"
          optional
          hint={`Leave empty to store applications here (/api/syncPage/${pageId}). Another site's address is taken only if the server's operator allows that site.`}
        />
      </fieldset>

      <fieldset className="group">
        <legend>Logo</legend>
        <TextField path={['logo']} label="Logo address" optional type="url" hint="An https:// address or a path starting with /, or upload an image." />
        <ImageUpload pageId={pageId} kind="logo" label="Upload a logo" onUploaded={(image, change) => change(['logo'], image.src)} />
        <CheckboxField path={['showLogo']} label="Show the logo" defaultValue />
        <CheckboxField path={['centerLogo']} label="Centre the logo" />
      </fieldset>

      <FieldGroup path={['styleConfig', 'theme']} legend="Theme">
        <p className="hint">Colours are checked for contrast as you choose them (WCAG 2.2 AA); leave one empty to keep the default.</p>
        <div className="theme-grid">
          <ColourField path={['styleConfig', 'theme', 'primary']} label="Primary colour (buttons, links)" fallback={DEFAULT_THEME.primary} />
          <ColourField path={['styleConfig', 'theme', 'surface']} label="Background colour" fallback={DEFAULT_THEME.surface} />
          <ColourField path={['styleConfig', 'theme', 'text']} label="Text colour" fallback={DEFAULT_THEME.text} />
          <NumberField path={['styleConfig', 'theme', 'radius']} label="Corner radius (px, 0–32)" min={0} max={32} />
        </div>
      </FieldGroup>

      <CoverImages pageId={pageId} covers={asArray(config.coverImages)} />

      <FieldGroup path={['buttonText']} legend="Buttons">
        <TextField path={['buttonText', 'continue']} label="Continue button" optional placeholder="Continue" />
        <TextField path={['buttonText', 'submit']} label="Button of the step that sends the application" optional placeholder="Submit application" />
        <TextField path={['buttonText', 'back']} label="Back button" optional placeholder="Back" />
        <TextField path={['buttonText', 'signIn']} label="Last step's button (to the sign-up page)" optional placeholder="Sign In" />
      </FieldGroup>

      <FooterLinks links={asArray(config.footerLinks)} />

      <fieldset className="group">
        <legend>Behaviour</legend>
        <SelectField
          path={['drafts']}
          label="Keep the applicant's answers while they type"
          emptyLabel="For the browser tab (default)"
          options={[
            { value: 'session', label: 'For the browser tab' },
            { value: 'local', label: 'On the device, across visits' },
            { value: 'off', label: 'Not at all' },
          ]}
        />
        <CheckboxField
          path={['resumeLink']}
          label="Offer a link by e-mail to finish on another device"
          hint="Only when the applicant asks: their answers are kept on the server, sealed, for 7 days. Never on a page that keeps no answers."
          defaultValue
        />
        <CheckboxField path={['skipFinalStep']} label="Skip the last step (go straight to the sign-up page)" />
        <CheckboxField path={['centerFooterText']} label="Centre the footer text" />
        <TextField path={['submitErrorText']} label="Message when sending fails (optional)" optional />
        <TextField
          path={['privacyVersion']}
          label="Privacy notice version (optional)"
          optional
          hint="Kept with every consent an applicant gives, e.g. 2026-11."
        />
      </fieldset>

      <EmailSettings pageId={pageId} saved={saved} />

      <AgeScreenSettings />

      <FieldGroup path={['retention']} legend="Keep applications">
        <p className="hint">Then the server erases them, with everything about them. Left empty, the default.</p>
        <NumberField
          path={['retention', 'declinedMonths']}
          label="Months a declined application is kept after the decision"
          hint={`Default ${DEFAULT_RETENTION.declinedMonths}; 1 to ${MAX_RETENTION_MONTHS}.`}
          min={1}
          max={MAX_RETENTION_MONTHS}
        />
        <NumberField
          path={['retention', 'otherMonths']}
          label="Months any other application is kept after it arrived"
          hint={`Default ${DEFAULT_RETENTION.otherMonths}; 1 to ${MAX_RETENTION_MONTHS}.`}
          min={1}
          max={MAX_RETENTION_MONTHS}
        />
      </FieldGroup>

      <FieldGroup path={['analytics']} legend="Analytics and error reporting (optional)">
        <TextField path={['analytics', 'token']} label="Mixpanel project token" optional />
        <TextField path={['analytics', 'host']} label="Mixpanel API host" optional type="url" placeholder="https://api-eu.mixpanel.com" />
        <TextField path={['errorReporting', 'dsn']} label="Sentry DSN" optional type="url" />
      </FieldGroup>
    </div>
  );
}

/**
 * An image upload: a file button (images only) that sends the file to the server, which answers
 * with its stored address(es); the result is said, and any refusal shown beside the button.
 */
function ImageUpload({
  pageId,
  kind,
  label,
  onUploaded,
}: {
  pageId: string;
  kind: 'cover' | 'logo';
  label: string;
  onUploaded: (image: { src: string; srcset?: string }, change: (path: DraftPath, value: unknown) => void) => void;
}) {
  const { readOnly, change } = useEditor();
  const upload = useUploadImage(pageId);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  if (readOnly) return null;
  return (
    <div className="field upload">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
        disabled={upload.isPending}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (!file) return;
          setError(undefined);
          upload.mutate(
            { kind, file },
            {
              onSuccess: (image) => {
                onUploaded(image, change);
                announce(`${file.name} uploaded.`);
                if (input.current) input.current.value = '';
              },
              onError: (failure) => setError(`${file.name} was not uploaded: ${failureText(failure).replace(/\.+$/, '')}.`),
            },
          );
        }}
      />
      {upload.isPending ? <p className="hint">Uploading…</p> : null}
      {error ? (
        <p id={`${id}-error`} className="field-problem" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Which steps show cover `index` (the wizard shows step n's cover, `coverImages[n]`, else the
 * first): "step 2, Introduce yourself"; the first also every step beyond the list; none while a
 * single cover image replaces the sequence.
 */
function coverUse(index: number, covers: number, steps: string[], single: boolean): string {
  if (single) return 'not shown: the single cover image below is shown on every step';
  const name = (step: number) => `step ${step + 1}${steps[step] ? `, ${steps[step]}` : ''}`;
  if (index >= steps.length) return 'not shown: the page has fewer steps';
  const beyond = index === 0 && steps.length > covers ? `, and ${steps.length - covers === 1 ? name(covers) : `steps ${covers + 1} to ${steps.length}`}` : '';
  return `shown on ${name(index)}${beyond}`;
}

/**
 * `covers` made to reach step `target` (0-based): the steps before it without a cover of their own
 * get the first cover (`first` when there is none), which they showed until then.
 * @returns the covers of steps 0 to `target - 1`.
 */
function coversBefore(covers: readonly unknown[], target: number, first: unknown): unknown[] {
  return [...covers, ...Array<unknown>(Math.max(target - covers.length, 0)).fill(covers[0] ?? first)];
}

/**
 * The cover images: each by its address and its sizes (`srcset`), with the steps it is shown on;
 * reordered, removed, added by URL, or uploaded as a step's cover (decision 031): the image takes
 * that step's place in the sequence, and the preview moves to that step, where it shows at once.
 */
function CoverImages({ pageId, covers }: { pageId: string; covers: unknown[] }) {
  const { readOnly, change, draft } = useEditor();
  const steps = (isObject(draft) ? asArray(draft.steps) : []).map((step) => (isObject(step) ? asText(step.name) : ''));
  const single = isObject(draft) && draft.singleCoverImg !== undefined && draft.singleCoverImg !== '';
  const [forStep, setForStep] = useState(0);
  const stepId = useId();
  const target = Math.min(forStep, Math.max(steps.length - 1, 0));
  return (
    <FieldGroup path={['coverImages']} legend="Cover images">
      <p className="hint">
        Shown beside the form (above it on a phone); several are shown one after the other. Uploaded images are resized to the sizes shown.
      </p>
      <ol className="item-list">
        {covers.map((cover, index) => {
          const name = `cover image ${index + 1}`;
          return (
            <li key={index} data-list-item className="item">
              <div className="item-head">
                <span className="item-title">
                  Cover image {index + 1} <span className="hint">· {coverUse(index, covers.length, steps, single)}</span>
                </span>
                <ListControls path={['coverImages']} index={index} count={covers.length} name={name} />
              </div>
              {isObject(cover) ? (
                <>
                  <TextField path={['coverImages', index, 'src']} label={`Cover image ${index + 1}: address`} type="url" />
                  <TextField path={['coverImages', index, 'srcset']} label={`Cover image ${index + 1}: sizes (srcset)`} />
                </>
              ) : (
                <TextField path={['coverImages', index]} label={`Cover image ${index + 1}: address`} type="url" />
              )}
              {/* This server's images only: the inbox's Content Security Policy allows no other host's. */}
              {asText(isObject(cover) ? cover.src : cover).startsWith('/') ? (
                <img className="thumbnail" src={asText(isObject(cover) ? cover.src : cover)} alt="" />
              ) : null}
            </li>
          );
        })}
      </ol>
      <SingleCover />
      {readOnly ? null : (
        <div className="add-row">
          <div className="field">
            <label htmlFor={stepId}>Cover image for</label>
            <select id={stepId} value={String(target)} onChange={(event) => setForStep(Number(event.target.value))}>
              {steps.map((name, step) => (
                <option key={step} value={step}>
                  Step {step + 1}
                  {name ? `: ${name}` : ''}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              // The chosen step's cover by its address: its own, to edit, or a new one to type.
              if (target >= covers.length) change(['coverImages'], [...coversBefore(covers, target, ''), '']);
              requestAnimationFrame(() =>
                document.getElementById(fieldId(jsonPath(isObject(covers[target]) ? ['coverImages', target, 'src'] : ['coverImages', target])))?.focus(),
              );
            }}
          >
            Give its address
          </button>
          <ImageUpload
            pageId={pageId}
            kind="cover"
            label="Upload a cover image"
            onUploaded={(image, set) => {
              // The steps before it without a cover of their own keep showing the first, as they did.
              if (target > covers.length) set(['coverImages'], coversBefore(covers, target, coverOf(image)));
              set(['coverImages', target], coverOf(image));
            }}
          />
        </div>
      )}
    </FieldGroup>
  );
}

/** `singleCoverImg`: one image shown in place of the covers' sequence (an address, or `{ src, srcset }`). */
function SingleCover() {
  const { draft } = useEditor();
  const single = isObject(draft) ? draft.singleCoverImg : undefined;
  return isObject(single) ? (
    <div className="pair">
      <TextField path={['singleCoverImg', 'src']} label="Single cover image: address" type="url" />
      <TextField path={['singleCoverImg', 'srcset']} label="Single cover image: sizes (srcset)" />
    </div>
  ) : (
    <TextField path={['singleCoverImg']} label="Single cover image (optional)" optional type="url" hint="One image shown in place of the covers above." />
  );
}

/** The footer's links: text and address each. */
function FooterLinks({ links }: { links: unknown[] }) {
  const { readOnly, change } = useEditor();
  return (
    <FieldGroup path={['footerLinks']} legend="Footer links">
      <ol className="item-list">
        {links.map((link, index) => {
          const text = isObject(link) ? asText(link.text) : '';
          const name = `footer link ${index + 1}${text ? `, ${text}` : ''}`;
          return (
            <li key={index} data-list-item className="item">
              <div className="item-head">
                <span className="item-title">Link {index + 1}</span>
                <ListControls path={['footerLinks']} index={index} count={links.length} name={name} />
              </div>
              <div className="pair">
                <TextField path={['footerLinks', index, 'text']} label={`Link ${index + 1}: text`} />
                <TextField path={['footerLinks', index, 'url']} label={`Link ${index + 1}: address`} type="url" />
              </div>
            </li>
          );
        })}
      </ol>
      {readOnly ? null : (
        <button type="button" className="secondary" onClick={() => change(['footerLinks'], [...links, { text: 'Privacy Policy', url: 'https://' }])}>
          Add a footer link
        </button>
      )}
    </FieldGroup>
  );
}
