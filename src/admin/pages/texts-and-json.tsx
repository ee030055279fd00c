import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { COUNTRIES_WITH_PROVINCES } from '../../shared/blocks/personal-info';
import { getSubdivisions } from '../../shared/data/countries';
import { DEFAULT_MESSAGES, type MessageKey } from '../../shared/messages';
import { fieldId, isObject } from './draft';
import { messageLabel } from './places';
import { TextField, useEditor, type Problem } from './fields';

/**
 * The "Messages" tab: every text of the wizard that is not a step's own (errors, buttons, the
 * closed page's message), each with its English default shown; a filter narrows the long list.
 * An empty field removes the override (the default applies).
 */
export function MessagesEditor() {
  const [filter, setFilter] = useState('');
  const filterId = useId();
  const keys = (Object.keys(DEFAULT_MESSAGES) as MessageKey[]).filter((key) => {
    const needle = filter.trim().toLowerCase();
    return (
      !needle || key.toLowerCase().includes(needle) || messageLabel(key).toLowerCase().includes(needle) || DEFAULT_MESSAGES[key].toLowerCase().includes(needle)
    );
  });
  return (
    <div className="messages-editor">
      <h2>Messages</h2>
      <p className="hint">
        The wizard's own texts: write them in the page's language. {'{name}'} placeholders are filled in by the wizard. Empty: the English default.
      </p>
      <div className="field">
        <label htmlFor={filterId}>Find a message</label>
        <input id={filterId} type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
      </div>
      <p className="hint" role="status">
        {keys.length} of {Object.keys(DEFAULT_MESSAGES).length} messages
      </p>
      <div className="messages-grid">
        {keys.map((key) => (
          <TextField
            key={key}
            path={['messages', key]}
            label={messageLabel(key)}
            optional
            placeholder={DEFAULT_MESSAGES[key]}
            hint={`Default: ${DEFAULT_MESSAGES[key]} (its key: ${key})`}
            multiline={DEFAULT_MESSAGES[key].length > 60}
            rows={2}
          />
        ))}
      </div>
      <SubdivisionNames filter={filter} />
    </div>
  );
}

/**
 * The page's own names of the states and provinces its lists offer (`subdivisionNames`, by ISO
 * 3166-2 code), folded away: only a page in another language that asks for them needs
 * them. The message filter narrows them too.
 */
function SubdivisionNames({ filter }: { filter: string }) {
  const needle = filter.trim().toLowerCase();
  const entries = COUNTRIES_WITH_PROVINCES.flatMap((country) =>
    (getSubdivisions(country) ?? []).map(({ code, name }) => ({ key: `${country}-${code}`, name })),
  );
  const shown = entries.filter(({ key, name }) => !needle || key.toLowerCase().includes(needle) || name.toLowerCase().includes(needle));
  return (
    <details className="subdivisions">
      <summary>Names of states and provinces ({shown.length})</summary>
      <p className="hint">For a page in another language: each name as the page says it. Empty: the English name.</p>
      <div className="messages-grid">
        {shown.map(({ key, name }) => (
          <TextField key={key} path={['subdivisionNames', key]} label={`${key} (${name})`} optional placeholder={name} />
        ))}
      </div>
    </details>
  );
}

/** The summary's line for JSON text that does not parse (the draft stays as it was): counted as a problem, so Publish waits. */
export const unparsedProblem = (error: string): Problem => ({
  path: '(root)',
  message: `The JSON text does not parse, so it is not applied (the page stays as it was): ${error}`,
});

/**
 * The "JSON" tab for experts: the whole draft as JSON text, editable. Text that parses to an
 * object replaces the draft (and runs the checks); text that does not is kept here, with the
 * parse error above the field, and the draft stays as it was; `onUnparsed` is told (the error, or
 * undefined once the text parses or is left), so the summary counts it and Publish waits.
 */
export function JsonEditor({ onUnparsed }: { onUnparsed?: (error: string | undefined) => void }) {
  const { draft, change, readOnly, problemsAt, register } = useEditor();
  // The field of problems no form shows (the whole configuration, "(root)"), and where the summary's links for them go.
  const id = fieldId('(root)');
  useLayoutEffect(() => register('(root)'), [register]);
  const [text, setText] = useState(() => JSON.stringify(draft, null, 2));
  const [error, setErrorState] = useState<string>();
  const setError = (next: string | undefined) => {
    setErrorState(next);
    onUnparsed?.(next);
  };
  // Leaving the tab drops the text that did not parse (the draft never had it): no longer a problem.
  useEffect(() => () => onUnparsed?.(undefined), [onUnparsed]);
  // The draft changed elsewhere (or by this text): show it, unless this text is mid-edit and broken.
  const mine = useRef(draft);
  useEffect(() => {
    if (draft !== mine.current) {
      mine.current = draft;
      setText(JSON.stringify(draft, null, 2));
      setErrorState(undefined);
      onUnparsed?.(undefined);
    }
  }, [draft, onUnparsed]);
  const rootProblems = problemsAt('(root)').filter((problem) => !error || problem.message !== unparsedProblem(error).message);
  return (
    <div className="json-editor">
      <h2>JSON</h2>
      <label htmlFor={id}>The page's configuration</label>
      <p id={`${id}-hint`} className="hint">
        For experts: the whole page as JSON text. Changes apply as soon as the text is valid JSON.
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-problem">
          Not applied, the JSON does not parse: {error}
        </p>
      ) : null}
      {rootProblems.length > 0 ? (
        <ul className="field-problem">
          {rootProblems.map((problem) => (
            <li key={`${problem.path}:${problem.message}`}>{problem.message}</li>
          ))}
        </ul>
      ) : null}
      <textarea
        id={id}
        className="json"
        spellCheck={false}
        rows={30}
        value={text}
        readOnly={readOnly}
        aria-invalid={error || rootProblems.length > 0 ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        onChange={(event) => {
          const value = event.target.value;
          setText(value);
          try {
            const parsed: unknown = JSON.parse(value);
            if (!isObject(parsed)) throw new SyntaxError('the configuration must be a JSON object ({ … })');
            setError(undefined);
            mine.current = parsed;
            change([], parsed);
          } catch (parseError) {
            setError(parseError instanceof Error ? parseError.message : String(parseError));
          }
        }}
      />
    </div>
  );
}
