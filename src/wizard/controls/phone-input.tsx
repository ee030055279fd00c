import { useState, type Ref } from 'react';
import { COUNTRY_KEYWORDS, DEFAULT_CALLING_CODE, getCallingCodeOptions } from '../../shared/data/countries';
import { Flag } from './flag';
import { Select, type Option, type SelectTexts } from './select';
import { TextField } from './text-field';

/** A phone number as the payload carries it (requirements §3). */
export interface PhoneValue {
  /** E.164 calling code without `+`: `1`, `44`, `1-684`. */
  countryCode: string;
  /** Subscriber number, digits only. */
  subscriber: string;
}

/** Props of {@link PhoneInput}. */
export interface PhoneInputProps {
  id: string;
  /** Page language, for country names. */
  lang: string;
  value: PhoneValue;
  onCallingCodeChange: (callingCode: string, isoAlpha2: string | undefined) => void;
  onSubscriberChange: (subscriber: string) => void;
  onSubscriberSettle?: (subscriber: string) => void;
  onBlur?: () => void;
  labels: { callingCode: string; subscriber: string };
  errors: { callingCode?: string | undefined; subscriber?: string | undefined };
  /** Whether the page requires each part (announced as `aria-required`). */
  required?: { callingCode?: boolean | undefined; subscriber?: boolean | undefined };
  texts: SelectTexts;
  /**
   * The country the number belongs to (ISO 3166-1 alpha-2), shown for its code until one is picked:
   * a pasted +44 number shows the United Kingdom, not the first +44 country by name.
   */
  country?: string | undefined;
  disabled?: boolean | undefined;
  callingCodeRef?: Ref<HTMLInputElement>;
  subscriberRef?: Ref<HTMLInputElement | HTMLTextAreaElement>;
}

const selectOptionsByLang = new Map<string, readonly Option[]>();

/**
 * The calling-code select's options in `lang` (`+44 United Kingdom`, value `GB:44`, search ranking
 * each shared code's main country first), built once
 * per language: every call for the same `lang` returns the same array.
 */
export function callingCodeSelectOptions(lang: string): readonly Option[] {
  let options = selectOptionsByLang.get(lang);
  if (!options) {
    options = getCallingCodeOptions(lang).map((option) => ({
      name: option.label,
      value: option.id,
      primary: option.primary,
      keywords: COUNTRY_KEYWORDS[option.isoAlpha2],
    }));
    selectOptionsByLang.set(lang, options);
  }
  return options;
}

/** The country of a calling-code option (`GB` of `GB:44`). */
const optionCountry = (option: Option) => option.value.slice(0, option.value.indexOf(':'));
/** The calling code of a calling-code option (`44` of `GB:44`, `1-684` of `AS:1-684`). */
const optionCallingCode = (option: Option) => option.value.slice(option.value.indexOf(':') + 1);

// Separators people type out of habit; anything else is kept so the digits rule can say what is wrong.
const SEPARATORS = /[\s().-]/g;

/**
 * A phone control: a searchable calling-code select with flags (code 1 first,
 * default 1, requirements §3, §9) and a digits-only subscriber number. Picking a code
 * reports the option's country too (requirements §4: it sets personalInfo.countryCode).
 * The closed box shows the country's flag and the code (`+44`), in full at every width;
 * the list, search and assistive technology have the code with the country's name.
 */
export function PhoneInput(props: PhoneInputProps) {
  const { id, lang, value, labels, errors, disabled } = props;
  const callingOptions = getCallingCodeOptions(lang);
  const options = callingCodeSelectOptions(lang);
  // Several countries share a code (+44, +1): remember which one was picked.
  const [pickedId, setPickedId] = useState<string>();
  const callingCode = value.countryCode || DEFAULT_CALLING_CODE;
  const selectedId =
    pickedId && pickedId.endsWith(`:${callingCode}`)
      ? pickedId
      : (
          callingOptions.find((option) => option.callingCode === callingCode && option.isoAlpha2 === props.country) ??
          // The number's own country not known yet (the phone library still loading, too few digits):
          // the code's main country (+44 the United Kingdom), not the first by name (Guernsey). Every
          // code has one (a code without a main country named: each of its countries).
          callingOptions.find((option) => option.callingCode === callingCode && option.primary)
        )?.id;

  return (
    <div className="phone" role="group" aria-label={`${labels.callingCode}, ${labels.subscriber}`}>
      <Select
        id={`${id}-calling-code`}
        className="phone-calling-code"
        label={labels.callingCode}
        options={options}
        value={selectedId}
        texts={props.texts}
        disabled={disabled}
        error={errors.callingCode}
        required={props.required?.callingCode}
        inputRef={props.callingCodeRef}
        onBlur={props.onBlur}
        renderSelected={(option) => <Flag country={optionCountry(option)} />}
        selectedText={(option) => `+${optionCallingCode(option)}`}
        renderOption={(option) => (
          <>
            <Flag country={optionCountry(option)} />
            {option.name}
          </>
        )}
        onChange={(next) => {
          setPickedId(next);
          const picked = callingOptions.find((option) => option.id === next);
          props.onCallingCodeChange(picked?.callingCode ?? '', picked?.isoAlpha2);
        }}
      />
      <TextField
        id={`${id}-subscriber`}
        name={`${id}-subscriber`}
        label={labels.subscriber}
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        value={value.subscriber}
        disabled={disabled}
        error={errors.subscriber}
        required={props.required?.subscriber}
        inputRef={props.subscriberRef}
        onBlur={props.onBlur}
        onChange={(next) => props.onSubscriberChange(next.replace(SEPARATORS, ''))}
        onSettle={props.onSubscriberSettle}
      />
    </div>
  );
}
