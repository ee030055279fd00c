import { RichTextField } from './rich-text';
import type { ReactNode } from 'react';
import { BLOCK_COMPONENTS, PERSONAL_INFO_FIELDS, type Block, type PersonalInfoField } from '../../shared/config';
import { AGREEMENT_KEY } from '../../shared/blocks/checkbox';
import { DEFAULT_MESSAGES } from '../../shared/messages';
import { PLATFORM_LABELS, PLATFORM_NAMES } from '../../shared/platforms';
import { asArray, asText, isObject, type DraftPath } from './draft';
import { CheckboxField, FieldGroup, NumberField, ProblemText, SelectField, TextField, useEditor, useField } from './fields';
import { ListControls } from './list-controls';
import { BLOCK_LABELS, answerFields, draftFields } from './answers';
import { AnswerRules, RequiredChecks } from './rules-editor';

export { BLOCK_LABELS, answerFields, draftFields };

/**
 * The forms of each block component: every setting of a block's `data` (src/shared/blocks)
 * through labelled fields, and under them the rules editor (rules-editor.tsx) for each answer the
 * block asks.
 */

/**
 * A new block of `component`, its answer under `fields.` at a path no block of the draft uses yet
 * (`fields.question2`), with texts the team then replaces.
 */
export function newBlock(component: Block['component'], draft: unknown): Block {
  const used = draftFields(draft);
  const free = (stem: string) => {
    for (let n = 1; ; n++) {
      const path = `fields.${stem}${n}`;
      if (![...used.keys()].some((other) => other === path || other.startsWith(`${path}.`))) return path;
    }
  };
  // A consent's purpose no other consent of the draft has: `consent1`, `consent2`, …
  const freePurpose = () => {
    for (let n = 1; ; n++) if (!used.has(`consents.consent${n}`)) return `consent${n}`;
  };
  const blocks: { [C in Block['component']]: () => Extract<Block, { component: C }> } = {
    html: () => ({ component: 'html', data: { html: '<h2>New section</h2><p>Say what this step is about.</p>' } }),
    personalInfo: () => ({ component: 'personalInfo', data: { fields: ['firstName', 'lastName', 'emailAddress'] } }),
    platforms: () => ({ component: 'platforms', data: { title: 'Platforms you share content on', platforms: [{ name: 'instagram' }] } }),
    select: () => ({ component: 'select', data: { path: free('question'), label: 'New question', options: [{ name: 'Option 1', value: 'Option 1' }] } }),
    yesNo: () => ({ component: 'yesNo', data: { path: free('yesNo'), label: 'New question', textLabel: 'Tell us more' } }),
    textField: () => ({ component: 'textField', data: { path: free('text'), label: 'New question' } }),
    checkbox: () => ({ component: 'checkbox', data: { path: free('consent'), label: 'I agree' } }),
    consent: () => ({
      component: 'consent',
      data: { purpose: freePurpose(), label: 'I agree that the brand may e-mail me about its future campaigns.', required: false },
    }),
  };
  return blocks[component]();
}

/** The form of one block at `path` (`['steps', 1, 'blocks', 0]`), by its component. */
export function BlockForm({ path, block }: { path: DraftPath; block: unknown }) {
  const component = isObject(block) ? block.component : undefined;
  const data = [...path, 'data'];
  const Form =
    typeof component === 'string' && (BLOCK_COMPONENTS as readonly string[]).includes(component) ? FORMS[component as Block['component']] : undefined;
  const answers = answerFields(block);
  const requiredBeside = component !== 'platforms' && component !== 'consent';
  // A block asking one answer shows "Required" right under its question; one asking several, after its form.
  const single = requiredBeside && answers.length === 1 && (component === 'select' || component === 'textField' || component === 'checkbox');
  const required = answers.length > 0 && requiredBeside ? <RequiredChecks answers={answers.map(([answer]) => answer)} /> : null;
  return (
    <div className="block-form">
      {Form ? (
        <Form data={data} block={isObject(block) ? block : {}} required={single ? required : undefined} />
      ) : (
        <p className="field-problem">This block's component is not one the wizard knows: fix it in the JSON view.</p>
      )}
      {/* The platforms and a consent say what they require in their own forms. */}
      {single ? null : required}
      {answers.length > 0 ? <AnswerRules answers={answers.map(([answer]) => answer)} requiredShown={requiredBeside} /> : null}
    </div>
  );
}

/** A form's props; `required`: "Required" for a block that asks one answer, shown right under its question. */
type FormProps = { data: DraftPath; block: Record<string, unknown>; required?: ReactNode };

const FORMS: Record<Block['component'], (props: FormProps) => ReactNode> = {
  html: ({ data }) => (
    <RichTextField
      path={[...data, 'html']}
      label="Text"
      hint="Headings (Heading 1 once per step), paragraphs, links and lists. {email} shows the e-mail entered."
    />
  ),
  personalInfo: PersonalInfoForm,
  platforms: PlatformsForm,
  select: SelectForm,
  yesNo: ({ data }) => (
    <>
      <AnswerPathField data={data} />
      <TextField path={[...data, 'label']} label="Question" />
      <TextField path={[...data, 'textLabel']} label="Follow-up question (asked when the answer is Yes)" />
      <TextField path={[...data, 'textPlaceholder']} label="Follow-up placeholder (optional)" optional />
    </>
  ),
  textField: ({ data, required }) => (
    <>
      <AnswerPathField data={data} />
      <TextField path={[...data, 'label']} label="Question" optional />
      {required}
      <TextField path={[...data, 'placeholder']} label="Placeholder (optional)" optional />
      <TextField path={[...data, 'footer']} label="Note under the box (optional)" optional />
      <CheckboxField path={[...data, 'multiline']} label="Long answer (several lines, up to 5 000 characters)" />
    </>
  ),
  checkbox: ({ data, required }) => (
    <>
      <AnswerPathField data={data} hint={`Use "${AGREEMENT_KEY}" for an agreement that is required and never sent.`} />
      <RichTextField path={[...data, 'label']} label="Label" inline />
      {required}
    </>
  ),
  consent: ({ data }) => (
    <>
      <TextField
        path={[...data, 'purpose']}
        label="Purpose"
        hint="A name for what is agreed to, e.g. marketing or adDisclosure: its records and its withdrawal go by it. Letters, digits, _ and -."
      />
      <RichTextField
        path={[...data, 'label']}
        label="Text agreed to"
        inline
        hint="Exactly what the applicant ticks: the text, its SHA-256, the page version and the time are kept with each application."
      />
      <CheckboxField path={[...data, 'required']} label="Required (an application cannot be sent without it, e.g. the ad-disclosure rules)" />
    </>
  ),
};

/** Where a question's answer is kept: `fields.` and a name; conditions and the inbox's columns name it. */
function AnswerPathField({ data, hint }: { data: DraftPath; hint?: string }) {
  return (
    <TextField
      path={[...data, 'path']}
      label="Answer name"
      hint={hint ?? 'Where the answer is stored, e.g. fields.favouriteProduct: letters, digits, _ and - after "fields.".'}
    />
  );
}

/** The default label of a personal-info field (the page's `messages`): `First name`. */
/** A personal detail by its label in the wizard ("First name", "Phone number"); its key when it has none. */
export const personalLabel = (field: PersonalInfoField): string =>
  (DEFAULT_MESSAGES as Record<string, string | undefined>)[field === 'phone' ? 'phoneSubscriberLabel' : `${field}Label`] ?? field;

function PersonalInfoForm({ data, block }: FormProps) {
  const { readOnly, change } = useEditor();
  const blockData = isObject(block.data) ? block.data : {};
  const fields = asArray(blockData.fields).filter((field): field is PersonalInfoField => (PERSONAL_INFO_FIELDS as readonly unknown[]).includes(field));
  const toggle = (field: PersonalInfoField, on: boolean) => {
    if (!on)
      return change(
        [...data, 'fields'],
        fields.filter((other) => other !== field),
      );
    // In the form's usual order among those already asked.
    const rank = PERSONAL_INFO_FIELDS.indexOf(field);
    const at = fields.findIndex((other) => PERSONAL_INFO_FIELDS.indexOf(other) > rank);
    change([...data, 'fields'], at < 0 ? [...fields, field] : [...fields.slice(0, at), field, ...fields.slice(at)]);
  };
  const group = useField([...data, 'fields']);
  return (
    <>
      <fieldset id={group.id} tabIndex={-1} className="group checks" aria-describedby={group.invalid ? group.problemId : undefined}>
        <legend>Details asked</legend>
        <ProblemText id={group.problemId} problems={group.problems} />
        {PERSONAL_INFO_FIELDS.map((field) => (
          <label key={field} className="check">
            <input type="checkbox" checked={fields.includes(field)} disabled={readOnly} onChange={(event) => toggle(field, event.target.checked)} />
            {personalLabel(field)}
          </label>
        ))}
      </fieldset>
      {fields.map((field) => (
        <div key={field} className="pair">
          <TextField path={[...data, 'labels', field]} label={`${personalLabel(field)}: label`} optional placeholder={personalLabel(field)} />
          <TextField path={[...data, 'placeholders', field]} label={`${personalLabel(field)}: placeholder`} optional />
        </div>
      ))}
    </>
  );
}

function PlatformsForm({ data, block }: FormProps) {
  const { readOnly, change } = useEditor();
  const platforms = asArray(isObject(block.data) ? block.data.platforms : undefined);
  const listPath = [...data, 'platforms'];
  const unused = PLATFORM_NAMES.find((name) => !platforms.some((row) => isObject(row) && row.name === name));
  return (
    <>
      <TextField path={[...data, 'title']} label="Title" />
      <FieldGroup path={listPath} legend="Platforms">
        <ol className="item-list">
          {platforms.map((row, index) => {
            const name =
              isObject(row) && typeof row.name === 'string' ? (PLATFORM_LABELS[row.name as keyof typeof PLATFORM_LABELS] ?? row.name) : `platform ${index + 1}`;
            return (
              <li key={index} data-list-item className="item">
                <div className="item-head">
                  <span className="item-title">{name}</span>
                  <ListControls path={listPath} index={index} count={platforms.length} name={`platform ${index + 1}, ${name}`} />
                </div>
                <div className="pair">
                  <SelectField
                    path={[...listPath, index, 'name']}
                    label={`Platform ${index + 1}`}
                    options={PLATFORM_NAMES.map((value) => ({ value, label: PLATFORM_LABELS[value] }))}
                  />
                  <TextField path={[...listPath, index, 'placeholder']} label={`${name}: placeholder`} optional />
                </div>
                <CheckboxField path={[...listPath, index, 'required']} label={`${name} is required`} />
              </li>
            );
          })}
        </ol>
        {readOnly || !unused ? null : (
          <button type="button" className="secondary" onClick={() => change(listPath, [...platforms, { name: unused }])}>
            Add a platform
          </button>
        )}
      </FieldGroup>
    </>
  );
}

function SelectForm({ data, block, required }: FormProps) {
  const { readOnly, change } = useEditor();
  const blockData = isObject(block.data) ? block.data : {};
  const options = asArray(blockData.options);
  const listPath = [...data, 'options'];
  return (
    <>
      <AnswerPathField data={data} />
      <TextField path={[...data, 'label']} label="Question" />
      {required}
      <TextField path={[...data, 'placeholder']} label="Placeholder (optional)" optional placeholder={DEFAULT_MESSAGES.selectPlaceholder} />
      <CheckboxField path={[...data, 'multiple']} label="Several answers may be chosen" />
      {blockData.multiple === true || blockData.maxLength !== undefined ? (
        <NumberField path={[...data, 'maxLength']} label="Most answers that may be chosen (optional)" min={1} />
      ) : null}
      <FieldGroup path={listPath} legend="Options">
        <ol className="item-list">
          {options.map((option, index) => {
            const name = `option ${index + 1}${isObject(option) && option.name ? `, ${asText(option.name)}` : ''}`;
            return (
              <li key={index} data-list-item className="item">
                <div className="item-head">
                  <span className="item-title">Option {index + 1}</span>
                  <ListControls path={listPath} index={index} count={options.length} name={name} />
                </div>
                <div className="pair">
                  <OptionNameField path={[...listPath, index]} option={option} index={index} />
                  <TextField path={[...listPath, index, 'value']} label={`Option ${index + 1}: value stored`} />
                </div>
              </li>
            );
          })}
        </ol>
        {readOnly ? null : (
          <button
            type="button"
            className="secondary"
            onClick={() => change(listPath, [...options, { name: `Option ${options.length + 1}`, value: `Option ${options.length + 1}` }])}
          >
            Add an option
          </button>
        )}
      </FieldGroup>
    </>
  );
}

/** An option's name; while its stored value is the same text, the value follows it (what most options want). */
function OptionNameField({ path, option, index }: { path: DraftPath; option: unknown; index: number }) {
  const field = useField([...path, 'name']);
  const { change } = useEditor();
  const value = isObject(option) ? option.value : undefined;
  return (
    <div className="field">
      <label htmlFor={field.id}>{`Option ${index + 1}: name shown`}</label>
      <input
        id={field.id}
        value={asText(field.value)}
        readOnly={field.readOnly}
        aria-invalid={field.invalid || undefined}
        aria-describedby={field.invalid ? field.problemId : undefined}
        onChange={(event) => {
          const name = event.target.value;
          change(path, { ...(isObject(option) ? option : {}), name, ...(value === undefined || value === field.value ? { value: name } : {}) });
        }}
      />
      <ProblemText id={field.problemId} problems={field.problems} />
    </div>
  );
}
