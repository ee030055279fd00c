import { DEFAULT_ADULT_AGE, HIGHEST_AGE, LOWEST_MINIMUM_AGE } from '../../shared/age';
import { FieldGroup, FieldNotes, NumberField, SelectField, TextField, describedBy, useField } from './fields';

const AGES = Array.from({ length: HIGHEST_AGE - LOWEST_MINIMUM_AGE + 1 }, (_, index) => LOWEST_MINIMUM_AGE + index);

/**
 * The page's age screen in the builder (docs/privacy.md, "Children and the age screen"): off by
 * default (the flow of requirements §4); on, the month and year of birth are asked after the first
 * step, with the minimum age (a number, or by country), the adult age, what minors meet, and the
 * page's own messages.
 */
export function AgeScreenSettings() {
  const screen = useField(['ageScreen']);
  const minimum = useField(['ageScreen', 'minimumAge']);
  const on = typeof screen.value === 'object' && screen.value !== null;
  const hintId = `${minimum.id}-hint`;
  return (
    <FieldGroup path={['ageScreen']} legend="Age screen">
      <div className="field">
        <label className="check" htmlFor={`${screen.id}-on`}>
          <input
            id={`${screen.id}-on`}
            type="checkbox"
            checked={on}
            disabled={screen.readOnly}
            onChange={(event) => screen.set(event.target.checked ? { minimumAge: LOWEST_MINIMUM_AGE } : undefined)}
          />
          Ask the month and year of birth before anything about the person
        </label>
        <p className="hint">
          Shown after the first step, which may then ask nothing. Under the minimum age the page ends on its message, and nothing about the person is sent or
          kept.
        </p>
      </div>
      {on ? (
        <>
          <div className="field">
            <label htmlFor={minimum.id}>Minimum age</label>
            <select
              id={minimum.id}
              value={String(minimum.value ?? LOWEST_MINIMUM_AGE)}
              disabled={minimum.readOnly}
              aria-invalid={minimum.invalid || undefined}
              aria-describedby={describedBy(minimum.invalid && minimum.problemId, hintId)}
              onChange={(event) => minimum.set(event.target.value === 'byCountry' ? 'byCountry' : Number(event.target.value))}
            >
              <option value="byCountry">By country (the age of digital consent where the person lives, 13 to 16)</option>
              {AGES.map((age) => (
                <option key={age} value={String(age)}>
                  {age}
                </option>
              ))}
            </select>
            <FieldNotes hint="By country, the screen also asks the country where the person lives." hintId={hintId} field={minimum} />
          </div>
          <NumberField
            path={['ageScreen', 'adultAge']}
            label="Adult age"
            hint={`From the minimum to under this age, a person is a minor. Default ${DEFAULT_ADULT_AGE}.`}
            min={LOWEST_MINIMUM_AGE}
            max={HIGHEST_AGE}
          />
          <SelectField
            path={['ageScreen', 'minors']}
            label="Minors"
            emptyLabel="Refuse them, as under the minimum"
            options={[{ value: 'guardian', label: "Ask a parent's or guardian's consent by e-mail" }]}
          />
          <TextField path={['ageScreen', 'endedHtml']} label="Message under the minimum age (HTML, optional)" optional multiline rows={2} />
          <TextField path={['ageScreen', 'minorsHtml']} label="Message to minors refused (HTML, optional)" optional multiline rows={2} />
        </>
      ) : null}
    </FieldGroup>
  );
}
