import { createContext, useCallback, useContext, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { asText, enclosingPaths, fieldId, getAt, jsonPath, type DraftPath } from './draft';
import type { PathProblem } from '../api';

/**
 * The builder's form fields: each edits one path of the draft, is labelled, and shows
 * the configuration's problems at its JSON path (`aria-invalid`, the message tied to it with
 * `aria-describedby`). A problem whose path has no field of its own (`steps[1].blocks[0].data.fields`
 * where the form shows a group of checkboxes) is shown at the nearest enclosing path that has one.
 */

/**
 * A problem of the draft: the configuration's checks, or the server's answer (422, 409): its path
 * (JSON path into the configuration, `steps[1].blocks[0].data.label`, or a page setting's name,
 * `hosts.1`), its message, and what to do about it.
 */
export interface Problem extends PathProblem {
  hint?: string;
}

interface EditorContextValue {
  draft: unknown;
  /** Sets the value at `path` (undefined removes it). */
  change: (path: DraftPath, value: unknown) => void;
  /**
   * Removes the element `index` of the list at `path` (with the rules and conditions of the answers
   * it alone asked), says so, and offers an Undo (focused), which calls `restored`; dismissing the
   * offer focuses `landing` (the list's heading). Absent (a test's provider): a plain change.
   */
  remove?: (path: DraftPath, index: number, name: string, after: { restored: () => void; landing: () => void }) => void;
  readOnly: boolean;
  /** Every problem of the draft. */
  problems: readonly Problem[];
  /** The problems shown at the field of `path` (those whose nearest field it is). */
  problemsAt: (path: string) => Problem[];
  /** Says a field of `path` is on screen; returns its undo. */
  register: (path: string) => () => void;
  /** The JSON path of the field a problem is shown at, or undefined when no field of it is on screen. */
  anchorOf: (path: string) => string | undefined;
}

const EditorContext = createContext<EditorContextValue | undefined>(undefined);

/** The draft, its setter, whether it is read only, and the problems at fields (inside {@link EditorProvider}). */
export function useEditor(): EditorContextValue {
  const context = useContext(EditorContext);
  if (!context) throw new Error('useEditor outside EditorProvider');
  return context;
}

/**
 * Gives the fields below it the draft and its problems. Fields register the paths they show, so a
 * problem goes to the nearest one (`enclosingPaths`); re-rendered once when the fields on screen change.
 */
export function EditorProvider({
  draft,
  change,
  remove,
  readOnly,
  problems,
  children,
}: {
  draft: unknown;
  change: EditorContextValue['change'];
  remove?: EditorContextValue['remove'];
  readOnly: boolean;
  problems: readonly Problem[];
  children: ReactNode;
}) {
  // The paths of the fields on screen, each with how many fields show it.
  const [registered, setRegistered] = useState<ReadonlyMap<string, number>>(() => new Map());
  const register = useCallback((path: string) => {
    setRegistered((before) => new Map(before).set(path, (before.get(path) ?? 0) + 1));
    return () =>
      setRegistered((before) => {
        const after = new Map(before);
        const left = (before.get(path) ?? 1) - 1;
        if (left > 0) after.set(path, left);
        else after.delete(path);
        return after;
      });
  }, []);
  const anchorOf = useCallback((path: string) => enclosingPaths(path).find((candidate) => registered.has(candidate)), [registered]);
  const byAnchor = useMemo(() => {
    const map = new Map<string, Problem[]>();
    for (const problem of problems) {
      const anchor = anchorOf(problem.path);
      if (anchor !== undefined) map.set(anchor, [...(map.get(anchor) ?? []), problem]);
    }
    return map;
  }, [problems, anchorOf]);
  const problemsAt = useCallback((path: string) => byAnchor.get(path) ?? [], [byAnchor]);
  const value = useMemo(
    () => ({ draft, change, remove, readOnly, problems, problemsAt, register, anchorOf }),
    [draft, change, remove, readOnly, problems, problemsAt, register, anchorOf],
  );
  return <EditorContext.Provider value={value}>{children}</EditorContext.Provider>;
}

/** One field's wiring: its id, value, setter and problems, registered while it is on screen. */
export function useField(path: DraftPath) {
  const editor = useEditor();
  const json = jsonPath(path);
  const { register } = editor;
  useLayoutEffect(() => register(json), [register, json]);
  const problems = editor.problemsAt(json);
  const id = fieldId(json);
  return {
    id,
    json,
    value: getAt(editor.draft, path),
    set: (value: unknown) => editor.change(path, value),
    readOnly: editor.readOnly,
    problems,
    problemId: `${id}-problem`,
    invalid: problems.length > 0,
  };
}

/** The ids an input is described by: its problem's (when it has one) and its hint's. */
export function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const list = ids.filter(Boolean);
  return list.length > 0 ? list.join(' ') : undefined;
}

/** A problem's hint when it speaks to the team: not one sending them to an engineering file (docs/configuration.md, the schema). */
export const teamHint = (hint: string | undefined): string | undefined => (hint && !/[\w/-]+\.(?:md|json)\b/.test(hint) ? hint : undefined);

/** What stands under a field: its hint (the text `hintId` names), then its problems. */
export function FieldNotes({ hint, hintId, field }: { hint?: string; hintId?: string; field: { problemId: string; problems: readonly Problem[] } }) {
  return (
    <>
      {hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
      <ProblemText id={field.problemId} problems={field.problems} />
    </>
  );
}

/** A field's problems, under it (also the text its `aria-describedby` names). */
export function ProblemText({ id, problems }: { id: string; problems: readonly Problem[] }) {
  if (problems.length === 0) return null;
  return (
    <p id={id} className="field-problem">
      {problems.map((problem) => problem.message + (teamHint(problem.hint) ? ` (${problem.hint})` : '')).join(' · ')}
    </p>
  );
}

interface TextFieldProps {
  path: DraftPath;
  label: string;
  hint?: string;
  /** Empty text removes the key (an optional setting) rather than storing ''. */
  optional?: boolean;
  multiline?: boolean;
  rows?: number;
  placeholder?: string;
  type?: 'text' | 'url';
  className?: string;
}

/** A text input (or textarea) for a string of the draft. */
export function TextField({ path, label, hint, optional, multiline, rows = 3, placeholder, type = 'text', className }: TextFieldProps) {
  const field = useField(path);
  const hintId = hint ? `${field.id}-hint` : undefined;
  const props = {
    id: field.id,
    value: asText(field.value),
    readOnly: field.readOnly,
    placeholder,
    'aria-invalid': field.invalid || undefined,
    'aria-describedby': describedBy(field.invalid && field.problemId, hintId),
    onChange: (event: { target: { value: string } }) => field.set(optional && event.target.value === '' ? undefined : event.target.value),
  };
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={field.id}>{label}</label>
      {multiline ? <textarea rows={rows} {...props} /> : <input type={type} {...props} />}
      <FieldNotes hint={hint} hintId={hintId} field={field} />
    </div>
  );
}

/** A whole number of the draft; empty removes it. */
export function NumberField({ path, label, hint, min, max }: { path: DraftPath; label: string; hint?: string; min?: number; max?: number }) {
  const field = useField(path);
  const hintId = hint ? `${field.id}-hint` : undefined;
  const [text, setText] = useState<string>();
  const shown = text ?? (typeof field.value === 'number' ? String(field.value) : asText(field.value));
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        id={field.id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={shown}
        readOnly={field.readOnly}
        aria-invalid={field.invalid || undefined}
        aria-describedby={describedBy(field.invalid && field.problemId, hintId)}
        onChange={(event) => {
          const value = event.target.value;
          setText(value);
          field.set(value === '' ? undefined : Number.isFinite(Number(value)) ? Number(value) : value);
        }}
        onBlur={() => setText(undefined)}
      />
      <FieldNotes hint={hint} hintId={hintId} field={field} />
    </div>
  );
}

/**
 * A yes/no setting of the draft as a checkbox. `defaultValue` is what the wizard assumes when the
 * key is absent; unticking an optional flag whose default is false removes it.
 */
export function CheckboxField({ path, label, defaultValue = false, hint }: { path: DraftPath; label: string; defaultValue?: boolean; hint?: string }) {
  const field = useField(path);
  const checked = typeof field.value === 'boolean' ? field.value : defaultValue;
  const hintId = hint ? `${field.id}-hint` : undefined;
  return (
    <div className="field">
      <label className="check" htmlFor={field.id}>
        <input
          id={field.id}
          type="checkbox"
          checked={checked}
          disabled={field.readOnly}
          aria-invalid={field.invalid || undefined}
          aria-describedby={describedBy(field.invalid && field.problemId, hintId)}
          onChange={(event) => field.set(event.target.checked === defaultValue ? undefined : event.target.checked)}
        />
        {label}
      </label>
      <FieldNotes hint={hint} hintId={hintId} field={field} />
    </div>
  );
}

/** A choice among fixed values of the draft; the empty choice (when given) removes the key. */
export function SelectField({
  path,
  label,
  options,
  emptyLabel,
  hint,
}: {
  path: DraftPath;
  label: string;
  options: readonly (string | { value: string; label: string })[];
  emptyLabel?: string;
  hint?: string;
}) {
  const field = useField(path);
  const hintId = hint ? `${field.id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <select
        id={field.id}
        value={asText(field.value)}
        disabled={field.readOnly}
        aria-invalid={field.invalid || undefined}
        aria-describedby={describedBy(field.invalid && field.problemId, hintId)}
        onChange={(event) => field.set(event.target.value === '' && emptyLabel !== undefined ? undefined : event.target.value)}
      >
        {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
        {options.map((option) => {
          const { value, label: text } = typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
      <FieldNotes hint={hint} hintId={hintId} field={field} />
    </div>
  );
}

/** `#rgb` as `#rrggbb` (what `<input type="color">` takes); anything else that is no hex colour as black. */
function sixDigits(hex: string): string {
  if (/^#[0-9a-f]{6}$/i.test(hex)) return hex.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(hex)) return `#${[...hex.slice(1)].map((digit) => digit + digit).join('')}`.toLowerCase();
  return '#000000';
}

/**
 * A theme colour: a colour picker and its hex text side by side (either changes it), and "Default"
 * to remove the token (the wizard's own colour then applies).
 */
export function ColourField({ path, label, fallback }: { path: DraftPath; label: string; fallback: string }) {
  const field = useField(path);
  const text = asText(field.value);
  const pickerId = `${field.id}-picker`;
  return (
    <div className="field colour-field">
      <label htmlFor={field.id}>{label}</label>
      <span className="colour-row">
        <input
          id={pickerId}
          type="color"
          aria-label={`${label}: colour picker`}
          value={sixDigits(text || fallback)}
          disabled={field.readOnly}
          onChange={(event) => field.set(event.target.value)}
        />
        <input
          id={field.id}
          value={text}
          placeholder={`${fallback} (default)`}
          readOnly={field.readOnly}
          size={9}
          aria-invalid={field.invalid || undefined}
          aria-describedby={describedBy(field.invalid && field.problemId)}
          onChange={(event) => field.set(event.target.value === '' ? undefined : event.target.value)}
        />
        {field.readOnly || text === '' ? null : (
          <button type="button" className="secondary small" onClick={() => field.set(undefined)} aria-label={`${label}: back to the default`}>
            Default
          </button>
        )}
      </span>
      <ProblemText id={field.problemId} problems={field.problems} />
    </div>
  );
}

/**
 * A group of fields for one path (a list, a block, a step): a `<fieldset>` whose legend names it;
 * problems of the path itself (a list too short, a block that is asked twice) are shown under the
 * legend, and the summary's link focuses the group.
 */
export function FieldGroup({ path, legend, children, className }: { path: DraftPath; legend: ReactNode; children: ReactNode; className?: string }) {
  const field = useField(path);
  return (
    <fieldset id={field.id} tabIndex={-1} className={`group ${className ?? ''}`} aria-describedby={field.invalid ? field.problemId : undefined}>
      <legend>{legend}</legend>
      <ProblemText id={field.problemId} problems={field.problems} />
      {children}
    </fieldset>
  );
}
