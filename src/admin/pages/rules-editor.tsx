import { useState } from 'react';
import { VALIDATOR_NAMES } from '../../shared/config';
import { asArray, asText, getAt, isObject, jsonPath, type DraftPath } from './draft';
import { FieldGroup, NumberField, ProblemText, SelectField, TextField, useEditor, useField } from './fields';
import { draftAlwaysShown, draftFields, offeredRules } from './answers';
import { answerNames } from './places';

/**
 * The rules editor of the builder: for each answer a block asks, its rules (validators) and the
 * condition it is shown on, which the configuration keeps in `formItems` by the answer's path.
 * The block forms (block-forms.tsx) show it under each block; the steps editor shows the rules of
 * answers no block asks any more.
 */

/** Validators as the team reads them. */
export const VALIDATOR_LABELS: Record<(typeof VALIDATOR_NAMES)[number], string> = {
  required: 'Required',
  notBlank: 'Not only spaces',
  email: 'An e-mail address',
  digits: 'Digits only',
  zip: 'A ZIP or postal code',
  handle: 'A user name',
  url: 'A website address',
  maxLength: 'At most … characters',
};

/** The rules of each answer a block asks, folded away until opened (opened by itself where there is a problem). */
export function AnswerRules({ answers, requiredShown = false }: { answers: string[]; requiredShown?: boolean }) {
  const { draft, problems } = useEditor();
  // Opened by a problem, it stays open once the problem is fixed (no fold under the typing).
  const [open, setOpen] = useState(false);
  const items = isObject(draft) ? asArray(draft.formItems) : [];
  const indexes = answers.map((answer) => itemIndex(draft, answer));
  const names = answerNames(draft);
  const troubled = indexes.some(
    (index) => index >= 0 && problems.some((problem) => problem.path === `formItems[${index}]` || problem.path.startsWith(`formItems[${index}].`)),
  );
  const described = answers.map((answer, i) => {
    const item = items[indexes[i]!];
    const validators = isObject(item) ? asArray(item.validators).length : 0;
    const condition = isObject(item) && item.showOnCondition !== undefined;
    return validators || condition
      ? `${questionOf(names, answer) ?? answer}: ${validators} rule${validators === 1 ? '' : 's'}${condition ? ', shown on a condition' : ''}`
      : undefined;
  });
  const summary = described.filter(Boolean).join('; ');
  return (
    <details className="rules" open={open || troubled} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Rules and conditions{summary ? ` (${summary})` : ''}</summary>
      {answers.map((answer, i) => (
        <FormItemEditor key={answer} answer={answer} index={indexes[i]!} requiredShown={requiredShown} />
      ))}
    </details>
  );
}

/**
 * The rules of one answer (`formItems[index]`, or none yet: the first rule ticked adds the item):
 * its validators, and the condition it is shown on. An item left with neither is removed.
 * @param answer - the answer's path; `index` its item's, -1 when it has none.
 */
/** A validator's name, written as a name or as `{ name, value }`. */
const nameOf = (spec: unknown) => (typeof spec === 'string' ? spec : isObject(spec) ? asText(spec.name) : '');

/**
 * One answer's item of `formItems` (`index`, -1 when it has none): its validators, and how to change
 * them. The first rule ticked adds the item; an item left with neither rule nor condition is removed
 * (unless its path is edited by hand, `pathEditable`).
 */
function useFormItem(answer: string, index: number, pathEditable = false) {
  const { draft, change, readOnly } = useEditor();
  const items = isObject(draft) ? asArray(draft.formItems) : [];
  const item = index >= 0 && isObject(items[index]) ? (items[index] as Record<string, unknown>) : undefined;
  const validators = asArray(item?.validators);
  const setItem = (next: Record<string, unknown> | undefined) => {
    if (index < 0) {
      if (next) change(['formItems'], [...items, next]);
      return;
    }
    const empty = next && asArray(next.validators).length === 0 && next.showOnCondition === undefined && !pathEditable;
    change(['formItems'], next && !empty ? items.map((other, i) => (i === index ? next : other)) : items.filter((_, i) => i !== index));
  };
  const toggle = (name: string, on: boolean) => {
    const rest = validators.filter((spec) => nameOf(spec) !== name);
    setItem({ ...(item ?? { path: answer }), validators: on ? [...validators, name === 'maxLength' ? { name, value: 200 } : name] : rest });
  };
  return { draft, readOnly, item, validators, setItem, toggle };
}

/** An answer's question as the team knows it (`answerNames`), without its step: the rules sit under its block already. */
function questionOf(names: ReadonlyMap<string, string>, answer: string): string | undefined {
  return names.get(answer)?.replace(/ \(step \d+\)$/, '');
}

/** The index of an answer's item in `formItems`, or -1. */
function itemIndex(draft: unknown, answer: string): number {
  return (isObject(draft) ? asArray(draft.formItems) : []).findIndex((item) => isObject(item) && item.path === answer);
}

/**
 * "Required" beside each question a block asks, in sight (not in the folded rules): ticked, the
 * answer's `required` validator is on — the wizard then marks the question and refuses a step
 * without its answer. Offered where the rule fits the answer (not for an answer the block makes
 * required already, or a kind that is never empty).
 */
export function RequiredChecks({ answers }: { answers: string[] }) {
  const { draft } = useEditor();
  const names = answerNames(draft);
  const shown = answers.filter((answer) => offeredRules(draft, answer, []).includes('required') || hasRule(draft, answer, 'required'));
  if (shown.length === 0) return null;
  return (
    <div className="required-checks">
      {shown.map((answer) => (
        <RequiredCheck key={answer} answer={answer} name={questionOf(names, answer) ?? answer} alone={shown.length === 1} />
      ))}
    </div>
  );
}

function hasRule(draft: unknown, answer: string, rule: string): boolean {
  const item = (isObject(draft) ? asArray(draft.formItems) : [])[itemIndex(draft, answer)];
  return isObject(item) && asArray(item.validators).some((spec) => nameOf(spec) === rule);
}

function RequiredCheck({ answer, name, alone }: { answer: string; name: string; alone: boolean }) {
  const { draft } = useEditor();
  const { readOnly, item, validators, toggle } = useFormItem(answer, itemIndex(draft, answer));
  // An answer shown on a condition is required while it shows (requirements §5), ticked or not:
  // said so, and not offered to untick.
  const conditional = item?.showOnCondition !== undefined;
  const on = conditional || validators.some((spec) => nameOf(spec) === 'required');
  const text = alone ? 'Required' : `Required: ${name}`;
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={on}
        disabled={readOnly || conditional}
        aria-label={`Required: ${name}${conditional ? ', while it is shown' : ''}`}
        onChange={(event) => toggle('required', event.target.checked)}
      />
      {conditional ? `${text}, while it is shown (its condition)` : text}
    </label>
  );
}

export function FormItemEditor({
  answer,
  index,
  pathEditable,
  requiredShown = false,
}: {
  answer: string;
  index: number;
  pathEditable?: boolean;
  /** "Required" is beside the question already ({@link RequiredChecks}): not repeated among the rules. */
  requiredShown?: boolean;
}) {
  const { draft, readOnly, item, validators, setItem, toggle } = useFormItem(answer, index, pathEditable);
  // An answer without an item yet: paths of its own that no problem names (its fields' ids stay unique).
  const base: DraftPath = index >= 0 ? ['formItems', index] : ['formItems', `(${answer})`];
  const condition = item?.showOnCondition;
  // The answer as the team knows it: its question (and step); its stored name after it, for experts.
  const name = questionOf(answerNames(draft), answer) ?? (answer || 'this answer');
  const offered = offeredRules(draft, answer, validators.map(nameOf));
  // A condition is offered where a condition can hide the answer (or to remove one set already).
  const conditionOffered = condition !== undefined || !draftAlwaysShown(draft).has(answer);
  return (
    <div className="form-item">
      {pathEditable ? (
        <TextField path={[...base, 'path']} label="Answer" />
      ) : (
        <p className="form-item-title">
          {name} <span className="problem-path">{answer}</span>
        </p>
      )}
      {index >= 0 ? <ItemAnchor path={base} /> : null}
      <ValidatorChecks
        answer={name}
        base={base}
        validators={validators}
        nameOf={nameOf}
        toggle={toggle}
        readOnly={readOnly}
        offered={offered}
        without={requiredShown ? 'required' : undefined}
      />
      {conditionOffered ? (
        <label className="check">
          <input
            type="checkbox"
            checked={condition !== undefined}
            disabled={readOnly}
            onChange={(event) =>
              setItem({ ...(item ?? { path: answer, validators: [] }), showOnCondition: event.target.checked ? { path: '', filled: true } : undefined })
            }
          />
          Show {name} only when another answer…
        </label>
      ) : null}
      {index >= 0 && condition !== undefined ? <ConditionEditor path={[...base, 'showOnCondition']} own={answer} ownName={name} /> : null}
    </div>
  );
}

/** The item's own problems (`formItems[3]`: a required province that can never be filled). */
function ItemAnchor({ path }: { path: DraftPath }) {
  const field = useField(path);
  return field.invalid ? (
    <p id={field.id} tabIndex={-1}>
      <ProblemText id={field.problemId} problems={field.problems} />
    </p>
  ) : (
    <span id={field.id} tabIndex={-1} />
  );
}

function ValidatorChecks({
  answer,
  base,
  validators,
  nameOf,
  toggle,
  readOnly,
  offered,
  without,
}: {
  answer: string;
  base: DraftPath;
  validators: unknown[];
  nameOf: (spec: unknown) => string;
  toggle: (name: string, on: boolean) => void;
  readOnly: boolean;
  offered: readonly (typeof VALIDATOR_NAMES)[number][];
  /** A rule shown elsewhere (beside the question), left out here. */
  without?: string | undefined;
}) {
  const shown = useField([...base, 'validators']);
  return (
    <fieldset id={shown.id} tabIndex={-1} className="group checks" aria-describedby={shown.invalid ? shown.problemId : undefined}>
      <legend>Rules for {answer}</legend>
      <ProblemText id={shown.problemId} problems={shown.problems} />
      {VALIDATOR_NAMES.map((name) => {
        const at = validators.findIndex((spec) => nameOf(spec) === name);
        if ((at < 0 && !offered.includes(name)) || name === without) return null;
        return (
          <ValidatorCheck
            key={name}
            name={name}
            path={[...base, 'validators', at]}
            on={at >= 0}
            hasValue={name === 'maxLength' && at >= 0}
            toggle={toggle}
            readOnly={readOnly}
          />
        );
      })}
    </fieldset>
  );
}

function ValidatorCheck({
  name,
  path,
  on,
  hasValue,
  toggle,
  readOnly,
}: {
  name: (typeof VALIDATOR_NAMES)[number];
  path: DraftPath;
  on: boolean;
  hasValue: boolean;
  toggle: (name: string, on: boolean) => void;
  readOnly: boolean;
}) {
  const field = useField(on ? path : [...path.slice(0, -1), `(${name})`]);
  return (
    <div className="validator">
      <label className="check">
        <input
          type="checkbox"
          id={field.id}
          checked={on}
          disabled={readOnly}
          aria-invalid={field.invalid || undefined}
          aria-describedby={field.invalid ? field.problemId : undefined}
          onChange={(event) => toggle(name, event.target.checked)}
        />
        {VALIDATOR_LABELS[name]}
      </label>
      {hasValue ? <NumberField path={[...path, 'value']} label="Characters at most" min={1} /> : null}
      <ProblemText id={field.problemId} problems={field.problems} />
    </div>
  );
}

/** A condition (`showOnCondition`): the answer it tests, how, with which value, and what happens while it does not hold. */
function ConditionEditor({ path, own, ownName }: { path: DraftPath; own: string; ownName: string }) {
  const { draft, change, readOnly } = useEditor();
  const found = getAt(draft, path);
  const condition = isObject(found) ? found : {};
  const fields = draftFields(draft);
  const tested = asText(condition.path);
  const kind = fields.get(tested);
  const test = condition.oneOf !== undefined ? 'oneOf' : condition.equals !== undefined ? 'equals' : condition.filled === false ? 'empty' : 'filled';
  const setTest = (next: string) => {
    const rest = Object.fromEntries(Object.entries(condition).filter(([key]) => key !== 'equals' && key !== 'oneOf' && key !== 'filled'));
    const first = kind?.kind === 'boolean' ? true : (kind?.options?.[0] ?? '');
    change(path, {
      ...rest,
      ...(next === 'filled'
        ? { filled: true }
        : next === 'empty'
          ? { filled: false }
          : next === 'equals'
            ? { equals: first }
            : { oneOf: kind?.options ? [kind.options[0]] : [] }),
    });
  };
  const choices = [...fields.keys()].filter((answer) => answer !== own);
  const names = answerNames(draft);
  const named = (answer: string) => ({ value: answer, label: names.get(answer) ?? `${answer} (no block asks it)` });
  const valueField = useField([...path, test === 'oneOf' ? 'oneOf' : 'equals']);
  return (
    <FieldGroup path={path} legend={`Condition for ${ownName}`} className="condition">
      <SelectField
        path={[...path, 'path']}
        label="The answer"
        emptyLabel="Choose an answer…"
        options={(tested && !choices.includes(tested) ? [tested, ...choices] : choices).map(named)}
      />
      <div className="field">
        <label htmlFor={`${jsonPath(path)}-test`}>Holds when it</label>
        <select id={`${jsonPath(path)}-test`} value={test} disabled={readOnly} onChange={(event) => setTest(event.target.value)}>
          <option value="filled">is filled in</option>
          <option value="empty">is empty</option>
          <option value="equals">equals</option>
          <option value="oneOf">is one of</option>
        </select>
      </div>
      {test === 'equals' ? (
        kind?.kind === 'boolean' || typeof condition.equals === 'boolean' ? (
          <div className="field">
            <label htmlFor={valueField.id}>Value</label>
            <select
              id={valueField.id}
              value={String(condition.equals)}
              disabled={readOnly}
              aria-invalid={valueField.invalid || undefined}
              aria-describedby={valueField.invalid ? valueField.problemId : undefined}
              onChange={(event) => change([...path, 'equals'], event.target.value === 'true')}
            >
              <option value="true">Yes (ticked)</option>
              <option value="false">No (not ticked)</option>
            </select>
            <ProblemText id={valueField.problemId} problems={valueField.problems} />
          </div>
        ) : kind?.options ? (
          <SelectField
            path={[...path, 'equals']}
            label="Value"
            options={kind.options.includes(asText(condition.equals)) ? kind.options : [asText(condition.equals), ...kind.options]}
          />
        ) : (
          <TextField path={[...path, 'equals']} label="Value" />
        )
      ) : null}
      {test === 'oneOf' ? (
        <div className="field">
          <label htmlFor={valueField.id}>Values (one a line)</label>
          <textarea
            id={valueField.id}
            rows={3}
            readOnly={readOnly}
            value={asArray(condition.oneOf).map(asText).join('\n')}
            aria-invalid={valueField.invalid || undefined}
            aria-describedby={valueField.invalid ? valueField.problemId : `${valueField.id}-hint`}
            onChange={(event) => change([...path, 'oneOf'], event.target.value.split('\n'))}
          />
          <p id={`${valueField.id}-hint`} className="hint">
            {kind?.options ? `Its options: ${kind.options.slice(0, 12).join(', ')}${kind.options.length > 12 ? ', …' : ''}` : 'Each line is one value.'}
          </p>
          <ProblemText id={valueField.problemId} problems={valueField.problems} />
        </div>
      ) : null}
      <SelectField
        path={[...path, 'effect']}
        label="Until it holds, the question is"
        emptyLabel="Hidden"
        options={[{ value: 'disable', label: 'Shown, but cannot be answered' }]}
      />
    </FieldGroup>
  );
}
