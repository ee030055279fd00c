import { useEffect, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  COUNTRY_PATH,
  PHONE_CALLING_CODE_PATH,
  PHONE_SUBSCRIBER_PATH,
  PROVINCE_PATH,
  personalInfoLabel,
  personalInfoPath,
  type PersonalInfoField,
} from '../../shared/blocks/personal-info';
import type { BlockOf } from '../../shared/config';
import { countryCallingCodes, countryOptions, getCountries, getSubdivisions, type Subdivision } from '../../shared/data/countries';
import { isValidPhone, loadPhoneNumbersFor, phoneCountry, phoneParts } from '../../shared/phone';
import { DEFAULT_CALLING_CODE } from '../../shared/rules';
import { Flag } from '../controls/flag';
import { callingCodeSelectOptions, PhoneInput, type PhoneValue } from '../controls/phone-input';
import { Select, type Option } from '../controls/select';
import { TextField } from '../controls/text-field';
import { useField, useItemVisibility, useRevalidate, useWizard } from '../engine/wizard-context';
import { useSelectTexts } from './select-texts';

type Data = BlockOf<'personalInfo'>['data'];
type TextKey = Exclude<PersonalInfoField, 'phone' | 'countryCode' | 'provinceCode'>;

const TEXT_INPUTS: Record<TextKey, { autoComplete: string; type?: 'email'; inputMode?: 'email' | 'numeric' }> = {
  firstName: { autoComplete: 'given-name' },
  lastName: { autoComplete: 'family-name' },
  emailAddress: { autoComplete: 'email', type: 'email', inputMode: 'email' },
  addressFirstLine: { autoComplete: 'address-line1' },
  addressSecondLine: { autoComplete: 'address-line2' },
  city: { autoComplete: 'address-level2' },
  zip: { autoComplete: 'postal-code' },
  company: { autoComplete: 'organization' },
};

/**
 * The personal info block (requirements §2, §3): the listed personalInfo fields in
 * order — names, phone with calling code, e-mail, country, and the state or
 * province list shown for the US and Canada.
 */
export function PersonalInfoBlock({ block }: { block: BlockOf<'personalInfo'> }) {
  const { messages } = useWizard();
  useScreenCountry();
  const label = (field: PersonalInfoField) => personalInfoLabel(block, field, messages);
  return (
    <div className="personal-info">
      {block.data.fields.map((field) => {
        switch (field) {
          case 'phone':
            return <PhoneField key={field} />;
          case 'countryCode':
            return <CountryField key={field} label={label(field)} />;
          case 'provinceCode':
            return <ProvinceField key={field} label={label(field)} />;
          default:
            return <PersonalTextField key={field} field={field} data={block.data} label={label(field)} />;
        }
      })}
    </div>
  );
}

/**
 * The block's lists as small tasks to run ahead of need while the browser is idle:
 * country names (`Intl.DisplayNames`, whose first use loads the browser's region names: ~50 ms
 * on a desktop core, ~200 ms on a phone), their order, and the select options. Built once per
 * language, so the step that shows them renders without building them. (The flags are images
 * since decision 019: no font to find ahead for them.)
 */
export function personalInfoWarmUp(block: BlockOf<'personalInfo'>, lang: string): (() => unknown)[] {
  const { fields } = block.data;
  const tasks: (() => unknown)[] = [];
  if (fields.includes('phone') || fields.includes('countryCode')) tasks.push(() => getCountries(lang));
  if (fields.includes('phone')) tasks.push(() => callingCodeSelectOptions(lang));
  if (fields.includes('countryCode')) tasks.push(() => countryOptions(lang));
  return tasks;
}

function PersonalTextField({ field: key, data, label }: { field: TextKey; data: Data; label: string }) {
  const { hidden, disabled } = useItemVisibility(personalInfoPath(key));
  const field = useField<string | undefined>(personalInfoPath(key));
  if (hidden) return null;
  return (
    <TextField
      id={field.id}
      name={field.name}
      label={label}
      placeholder={data.placeholders?.[key]}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      onSettle={field.settle}
      error={field.error}
      required={field.required}
      disabled={disabled}
      inputRef={field.ref}
      {...TEXT_INPUTS[key]}
    />
  );
}

/** Sets the country, and clears a state that belongs to another country. */
function useSetCountry() {
  const { setValue, getValues } = useFormContext();
  const revalidate = useRevalidate();
  return (isoAlpha2: string) => {
    if (getValues(COUNTRY_PATH) === isoAlpha2) return;
    setValue(COUNTRY_PATH, isoAlpha2, { shouldDirty: true });
    setValue(PROVINCE_PATH, '', { shouldDirty: true });
    revalidate([COUNTRY_PATH]);
  };
}

/** The calling code a form's country last set (by the form's control): every field of the form sees it. */
const codeSetByCountry = new WeakMap<object, string>();
/** The forms (by their control) the age screen's country has been given to: once each. */
const screenCountryGiven = new WeakSet<object>();

/**
 * The country the age screen was answered with (a page whose minimum age is by country,
 * requirements §20; decision 028), given to the form once, as the first personal details block
 * shows, whichever field it holds: the country field takes it while empty (as if picked there),
 * and the calling code follows it while no number says otherwise, on a page without a country
 * field too.
 */
function useScreenCountry() {
  const { screenCountry, targets } = useWizard();
  const { control, getValues } = useFormContext();
  const setCountry = useSetCountry();
  const followCountry = useCallingCodeFollowsCountry();
  useEffect(() => {
    if (!screenCountry || screenCountryGiven.has(control)) return;
    screenCountryGiven.add(control);
    if (targets.has(COUNTRY_PATH)) {
      if (getValues(COUNTRY_PATH)) return;
      setCountry(screenCountry);
    }
    followCountry(screenCountry);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/**
 * The calling code follows a country chosen in the country field (requirements §4: the two agree
 * both ways), while the phone number is empty or its code was never chosen by hand — picked in the
 * calling-code box or set by a pasted international number (any code but the one a country set
 * last; the default, when the field is dirty), or found other than the default in a restored
 * draft; a code a country set follows again — and
 * the number typed is not right for its code already (docs/decisions/031).
 * @returns a function taking the chosen country (ISO 3166-1 alpha-2).
 */
function useCallingCodeFollowsCountry(): (isoAlpha2: string) => void {
  const { targets } = useWizard();
  const { control, getValues, getFieldState, setValue } = useFormContext();
  const revalidate = useRevalidate();
  return (isoAlpha2) => {
    const codes = countryCallingCodes(isoAlpha2);
    const current = String(getValues(PHONE_CALLING_CODE_PATH) ?? '');
    if (!targets.has(PHONE_CALLING_CODE_PATH) || codes.length === 0 || codes.includes(current)) return;
    // Another code than the default is the applicant's unless this field set it; the default (or
    // none) is theirs when picked. Not the form's dirty flag alone: react-hook-form works it out
    // again from the values when any field returns to its default (a country cleared), and then
    // counts a code this field set as changed by hand.
    const byHand =
      current === DEFAULT_CALLING_CODE || current === '' ? getFieldState(PHONE_CALLING_CODE_PATH).isDirty : current !== codeSetByCountry.get(control);
    const subscriber = String(getValues(PHONE_SUBSCRIBER_PATH) ?? '');
    // A number typed is kept whole: under a code chosen by hand, or one it is right for already (a
    // US number under the default +1, by someone who lives in Japan). A French mobile left under
    // the default +1 is not right for it: the code follows the country, and the number is then.
    if (subscriber !== '' && (byHand || isValidPhone(current || DEFAULT_CALLING_CODE, subscriber))) return;
    const code = codes[0]!;
    codeSetByCountry.set(control, code);
    setValue(PHONE_CALLING_CODE_PATH, code);
    // Judged by the new code's numbering plans: at once when they are here, else as they arrive.
    const recheck = () => revalidate([PHONE_CALLING_CODE_PATH, PHONE_SUBSCRIBER_PATH]);
    void loadPhoneNumbersFor(code, subscriber).then(recheck, recheck);
  };
}

/** The start of an international number: `+` or `00`, then digits. */
const INTERNATIONAL = /^(?:\+|00)\d{6,}/;

function PhoneField() {
  const { config, messages } = useWizard();
  const callingCode = useField<string>(PHONE_CALLING_CODE_PATH);
  const subscriber = useField<string>(PHONE_SUBSCRIBER_PATH);
  const setCountry = useSetCountry();
  const texts = useSelectTexts();
  const value: PhoneValue = { countryCode: callingCode.value ?? '', subscriber: subscriber.value ?? '' };
  const revalidate = useRevalidate();
  // Each part is required when the other is filled: re-check the pair together.
  const recheck = () => revalidate([PHONE_CALLING_CODE_PATH, PHONE_SUBSCRIBER_PATH]);
  const { getValues } = useFormContext();
  /** A pasted international number (+44 …, 0044 …) sets the calling code and keeps its national number. */
  const splitInternational = (typed: string): boolean => {
    if (!INTERNATIONAL.test(typed)) return false;
    const parts = phoneParts(String(getValues(PHONE_CALLING_CODE_PATH) || DEFAULT_CALLING_CODE), typed);
    if (parts.subscriber === typed) return false;
    callingCode.onChange(parts.callingCode);
    subscriber.onChange(parts.subscriber);
    recheck();
    return true;
  };
  // The phone-number library and the chosen code's numbering plans load with the step that asks for
  // a phone, not with the page, and another code's plans when it is chosen; shown again as they
  // arrive (the country of a shared code, `+44` → the United Kingdom).
  const chosenCode = value.countryCode || DEFAULT_CALLING_CODE;
  // The country chosen in the country field: the calling-code box shows its flag for its code
  // (Jersey's +44, not the United Kingdom's) while no number says otherwise.
  const country = useWatch({ name: COUNTRY_PATH }) as string | undefined;
  const [, setPlansLoaded] = useState(0);
  useEffect(() => {
    let current = true;
    loadPhoneNumbersFor(chosenCode).then(
      () => current && setPlansLoaded((count) => count + 1),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [chosenCode]);
  return (
    <PhoneInput
      id="personalInfo-phone"
      lang={config.lang}
      value={value}
      labels={{ callingCode: messages.phoneCallingCodeLabel, subscriber: messages.phoneSubscriberLabel }}
      errors={{ callingCode: callingCode.error, subscriber: subscriber.error }}
      required={{ callingCode: callingCode.required, subscriber: subscriber.required }}
      texts={texts}
      country={value.subscriber === '' && country && countryCallingCodes(country).includes(chosenCode) ? country : phoneCountry(chosenCode, value.subscriber)}
      callingCodeRef={callingCode.ref}
      subscriberRef={subscriber.ref}
      onBlur={() => {
        callingCode.onBlur();
        subscriber.onBlur();
      }}
      onCallingCodeChange={(code, isoAlpha2) => {
        callingCode.onChange(code);
        if (isoAlpha2) setCountry(isoAlpha2);
        // Judged by the new code's numbering plans: at once when they are here, else as they arrive.
        void loadPhoneNumbersFor(code, String(getValues(PHONE_SUBSCRIBER_PATH) ?? '')).then(recheck, recheck);
      }}
      onSubscriberChange={(typed) => {
        if (splitInternational(typed)) return;
        subscriber.onChange(typed);
        // Pasted before the phone library and its code's plans arrived: split it as soon as they
        // have, unless typed on since.
        if (INTERNATIONAL.test(typed)) {
          void loadPhoneNumbersFor(chosenCode, typed).then(
            () => getValues(PHONE_SUBSCRIBER_PATH) === typed && splitInternational(typed),
            () => undefined,
          );
        }
      }}
      onSubscriberSettle={recheck}
    />
  );
}

function CountryField({ label }: { label: string }) {
  const { config } = useWizard();
  const field = useField<string | undefined>(COUNTRY_PATH);
  const setCountry = useSetCountry();
  const followCountry = useCallingCodeFollowsCountry();
  const texts = useSelectTexts();
  const options = countryOptions(config.lang);
  return (
    <Select
      id={field.id}
      label={label}
      options={options}
      value={field.value || undefined}
      texts={texts}
      error={field.error}
      required={field.required}
      inputRef={field.ref}
      onBlur={field.onBlur}
      renderSelected={(option) => <Flag country={option.value} />}
      renderOption={(option) => (
        <>
          <Flag country={option.value} />
          {option.name}
        </>
      )}
      onChange={(value) => {
        setCountry(value ?? '');
        if (value) followCountry(value);
      }}
    />
  );
}

function ProvinceField({ label }: { label: string }) {
  const country = useWatch({ name: COUNTRY_PATH }) as string | undefined;
  const { hidden, disabled } = useItemVisibility(PROVINCE_PATH);
  const subdivisions = getSubdivisions(country);
  // No state field for countries without a list (requirements §3 Lists).
  if (hidden || !subdivisions) return null;
  return <ProvinceSelect key={country} label={label} country={country!} subdivisions={subdivisions} disabled={disabled} />;
}

const NO_NAMES: Readonly<Record<string, string>> = {};
// Each country's state / province options, built once per list of names and language.
const provinceOptionsByNames = new WeakMap<object, Map<string, readonly Option[]>>();
/**
 * A country's states or provinces as options, named as the page names them (`names`, by ISO 3166-2
 * code such as `US-CA`; else the English name) and sorted by name in the page's language (not by
 * code). Every call with the same list, names and language returns the same array.
 */
export function provinceOptions(
  country: string,
  subdivisions: readonly Subdivision[],
  lang: string,
  names: Readonly<Partial<Record<string, string>>> = NO_NAMES,
): readonly Option[] {
  let byKey = provinceOptionsByNames.get(names);
  if (!byKey) provinceOptionsByNames.set(names, (byKey = new Map()));
  const key = `${country}:${lang}`;
  let options = byKey.get(key);
  if (!options) {
    const collator = new Intl.Collator(lang);
    options = subdivisions
      .map((subdivision) => ({ name: names[`${country}-${subdivision.code}`] ?? subdivision.name, value: subdivision.code }))
      .sort((a, b) => collator.compare(a.name, b.name));
    byKey.set(key, options);
  }
  return options;
}

function ProvinceSelect(props: { label: string; country: string; subdivisions: readonly Subdivision[]; disabled: boolean }) {
  const { label, country, subdivisions, disabled } = props;
  const field = useField<string | undefined>(PROVINCE_PATH);
  const texts = useSelectTexts();
  const { config } = useWizard();
  const options = provinceOptions(country, subdivisions, config.lang, config.subdivisionNames);
  return (
    <Select
      id={field.id}
      label={label}
      options={options}
      value={field.value || undefined}
      texts={texts}
      error={field.error}
      required={field.required}
      disabled={disabled}
      inputRef={field.ref}
      onBlur={field.onBlur}
      onChange={(value) => {
        field.onChange(value ?? '');
        field.settle();
      }}
    />
  );
}
