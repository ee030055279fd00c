import { useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import type { AgeScreen as AgeScreenConfig } from '../../shared/age';
import { ageVerdict, birthMonthProblem, endedHtml, endsScreen, type AgeVerdict } from '../../shared/age-rules';
import type { AgeScreenAnswers } from '../../shared/build-payload';
import type { WizardConfig } from '../../shared/config';
import { countryOptions } from '../../shared/data/countries';
import { selectTexts } from '../../shared/messages';
import { SafeHtml } from '../controls/safe-html';
import { Select, type Option } from '../controls/select';
import { TextField } from '../controls/text-field';
import type { AgeScreenLock } from '../services/age-screen-lock';
import type { Analytics } from '../services/analytics';
import type { DraftStore } from '../services/drafts';
import { GuardianFields, guardianProblems, type GuardianAnswer } from './guardian-fields';
import { RequiredNote } from '../controls/required-mark';

/** What the age screen shows: the question, the guardian's details (a minor on a page that asks for them), or its end. */
type Phase = { name: 'ask' } | { name: 'guardian' } | { name: 'ended'; verdict: AgeVerdict };

/** Props of {@link AgeScreen}. */
export interface AgeScreenProps {
  /** The page's configuration; `ageScreen` set. */
  config: WizardConfig & { ageScreen: AgeScreenConfig };
  /** Where the browser keeps that the screen ended: localStorage on the public page (age-screen-page.tsx), memory in the preview. */
  lock: AgeScreenLock;
  /** The step the screen shows on (the draft is saved there once its answer took). */
  step: number;
  /** The page's draft: the answer is kept in it once it took; an ending drops it. */
  drafts: DraftStore;
  /** The page's analytics: an ending is counted in the funnel, anonymously ('Age Screen Ended'). */
  analytics: Analytics;
  /** Moves focus to the step's heading once the answer took (the page's services). */
  focusHeading: (content: ParentNode, orStep: boolean) => boolean;
  /**
   * Set by the screen to what the page's Continue does while it shows (the page's frame owns the
   * button and its form: the same elements before, during and after the screen).
   */
  continueRef: Ref<() => void>;
  /** The answer took: the wizard goes on with it (sent with the application). */
  onPassed(answers: AgeScreenAnswers): void;
  /** The screen ended the wizard: neither Back nor Continue from now. */
  onEnded(): void;
  /** The instant the age is worked out at (ms since the epoch): `Date.now` by default (tests: a clock of their own). */
  now?: () => number;
}

/** The age screen as the page shows it: where it keeps that it ended is the screen's own affair. */
export type PageAgeScreenProps = Omit<AgeScreenProps, 'lock'>;

/** The months' names in `lang` (January … December), values `01` … `12`, found by their numbers too (`3`, `03`). */
function monthOptions(lang: string): Option[] {
  const format = new Intl.DateTimeFormat(lang, { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, index) => {
    const value = String(index + 1).padStart(2, '0');
    return { name: format.format(Date.UTC(2000, index, 1)), value, keywords: [String(index + 1), value] };
  });
}

/**
 * The neutral age screen (requirements §20; the rules in src/shared/age.ts): the month of birth from
 * a list of the twelve months, the year typed freely (nothing pre-filled, no list of years), and
 * the country where the minimum is by country; no word of an age before the answer. Continue
 * works the age out: under the minimum (or a minor where the page refuses minors) the wizard ends
 * on the page's message, and ends so on this browser for 24 hours whatever is answered; a minor
 * where the page asks for a guardian is asked for the guardian's name and e-mail address; anyone
 * else goes on. Its answers are kept by the page, never in the form's draft before they took.
 */
export function AgeScreen(props: AgeScreenProps) {
  const { config, continueRef, step, drafts, analytics, focusHeading, onPassed, onEnded, now = Date.now } = props;
  const { messages, ageScreen: screen, lang } = config;
  // The first render's: the page makes one each time it renders.
  const [lock] = useState(() => props.lock);
  // A minor's answer kept (a page that asks their guardian): straight to the guardian's details with it.
  const [kept] = useState(() => (screen.minors === 'guardian' ? lock.minorAnswer() : undefined));
  const [phase, setPhase] = useState<Phase>(() => {
    const verdict = lock.ended();
    return verdict ? { name: 'ended', verdict } : kept ? { name: 'guardian' } : { name: 'ask' };
  });
  const [month, setMonth] = useState<string | undefined>();
  const [year, setYear] = useState('');
  const [country, setCountry] = useState<string | undefined>();
  const [guardian, setGuardian] = useState<GuardianAnswer>({ name: '', emailAddress: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const headingRef = useRef<HTMLHeadingElement>(null);
  const monthRef = useRef<HTMLInputElement>(null);
  const yearRef = useRef<HTMLInputElement | HTMLTextAreaElement>(null);
  const countryRef = useRef<HTMLInputElement>(null);
  const guardianNameRef = useRef<HTMLInputElement | HTMLTextAreaElement>(null);
  const guardianEmailRef = useRef<HTMLInputElement | HTMLTextAreaElement>(null);
  const focusNext = useRef<string | undefined>(undefined);
  const months = useMemo(() => monthOptions(lang), [lang]);
  const texts = useMemo(() => selectTexts(messages), [messages]);
  const byCountry = screen.minimumAge === 'byCountry';

  // An ending found on arrival (within the 24 hours): no way on, and no draft kept; not counted again.
  const endedOnArrival = useRef(phase.name === 'ended');
  useEffect(() => {
    if (!endedOnArrival.current) return;
    endedOnArrival.current = false;
    drafts.clear();
    onEnded();
  }, [drafts, onEnded]);

  // A new phase's heading takes focus (as a step change's does); an error, its first field.
  const firstPhase = useRef(true);
  useEffect(() => {
    if (firstPhase.current) {
      firstPhase.current = false;
      return;
    }
    headingRef.current?.focus({ preventScroll: false });
  }, [phase.name]);
  useEffect(() => {
    const path = focusNext.current;
    focusNext.current = undefined;
    const field = { month: monthRef, year: yearRef, country: countryRef, guardianName: guardianNameRef, guardianEmail: guardianEmailRef }[path ?? ''];
    field?.current?.focus();
  }, [errors]);

  const show = (found: Record<string, string>) => {
    focusNext.current = Object.keys(found)[0];
    setErrors(found);
  };
  const carryOn = () => {
    if (phase.name === 'ended') return;
    const found: Record<string, string> = {};
    const birthMonth = kept?.birthMonth ?? `${year.trim()}-${month ?? ''}`;
    if (phase.name === 'ask') {
      if (!month) found.month = messages.required;
      if (year.trim() === '') found.year = messages.required;
      else if (!/^\d{4}$/.test(year.trim())) found.year = messages.birthYearInvalid;
      else if (month) {
        const problem = birthMonthProblem(birthMonth, now());
        // A month to come is the month's fault in a year begun somewhere on Earth (its January
        // taken: the same rule), the year's in a year to come.
        const monthsFault = problem === 'birthMonthFuture' && birthMonthProblem(`${year.trim()}-01`, now()) === undefined;
        if (problem) found[monthsFault ? 'month' : 'year'] = messages[problem];
      }
      if (byCountry && !country) found.country = messages.required;
      if (Object.keys(found).length > 0) return show(found);
      setErrors({});
      const age = { birthMonth, ...(byCountry ? { countryCode: country } : {}) };
      const verdict = ageVerdict(screen, age, now());
      if (endsScreen(screen, verdict)) {
        lock.end(verdict);
        // Nothing typed is kept: the answer leaves with the screen.
        setMonth(undefined);
        setYear('');
        setCountry(undefined);
        setPhase({ name: 'ended', verdict });
        // Nothing about the person stays on the browser; the ending is counted, anonymously.
        drafts.clear();
        void analytics.track('Age Screen Ended', {});
        onEnded();
        return;
      }
      if (verdict === 'minor' && screen.minors === 'guardian') {
        // Kept for 24 hours: going back and answering again as an adult finds the same answer.
        lock.keepMinorAnswer(age);
        return setPhase({ name: 'guardian' });
      }
      return pass({ age });
    }
    const problems = guardianProblems(guardian, messages);
    if (problems.name) found.guardianName = problems.name;
    if (problems.emailAddress) found.guardianEmail = problems.emailAddress;
    if (Object.keys(found).length > 0) return show(found);
    pass({
      age: kept ?? { birthMonth, ...(byCountry ? { countryCode: country } : {}) },
      guardian: { name: guardian.name.trim(), emailAddress: guardian.emailAddress.trim() },
    });
  };

  /** The answer took: kept in the draft (a reload does not ask again), and the wizard goes on, its step's heading focused. */
  const pass = (answers: AgeScreenAnswers) => {
    drafts.save({ step, values: drafts.load()?.values ?? {}, screen: answers });
    const content = headingRef.current?.closest('.content');
    onPassed(answers);
    // Once the step has rendered in the screen's place.
    requestAnimationFrame(() => content && focusHeading(content, true));
  };

  useImperativeHandle(continueRef, () => carryOn);

  if (phase.name === 'ended') {
    const html = endedHtml(screen, phase.verdict);
    return (
      <div className="step age-screen">
        <h1 ref={headingRef} tabIndex={-1} className="visually-hidden">
          {config.title}
        </h1>
        {html === undefined ? <p className="age-ended">{messages.ageEnded}</p> : <SafeHtml className="block-html age-ended" html={html} />}
      </div>
    );
  }
  if (phase.name === 'guardian') {
    return (
      <div className="step age-screen">
        <h1 ref={headingRef} tabIndex={-1}>
          {messages.guardianHeading}
        </h1>
        <p>{messages.guardianIntro}</p>
        <RequiredNote text={messages.requiredNote} />
        <GuardianFields
          value={guardian}
          onChange={setGuardian}
          errors={{ name: errors.guardianName, emailAddress: errors.guardianEmail }}
          messages={messages}
          idPrefix="age-guardian"
          nameRef={guardianNameRef}
          emailRef={guardianEmailRef}
        />
      </div>
    );
  }
  return (
    <div className="step age-screen">
      <h1 ref={headingRef} tabIndex={-1}>
        {messages.ageHeading}
      </h1>
      <RequiredNote text={messages.requiredNote} />
      <div className="age-birth">
        <Select
          id="age-birth-month"
          label={messages.birthMonthLabel}
          options={months}
          value={month}
          texts={texts}
          error={errors.month}
          required
          inputRef={monthRef}
          onChange={setMonth}
        />
        <TextField
          id="age-birth-year"
          name="age.birthYear"
          label={messages.birthYearLabel}
          value={year}
          onChange={(value) => setYear(value.replace(/\D/g, '').slice(0, 4))}
          error={errors.year}
          required
          inputMode="numeric"
          autoComplete="bday-year"
          inputRef={yearRef}
        />
      </div>
      {byCountry ? (
        <Select
          id="age-country"
          label={messages.ageCountryLabel}
          options={countryOptions(lang)}
          value={country}
          texts={texts}
          error={errors.country}
          required
          inputRef={countryRef}
          onChange={setCountry}
        />
      ) : null}
    </div>
  );
}
