/**
 * What the page says when it cannot read its own configuration (so there is no catalogue to take
 * the text from). A constant of its own so that the wizard's first script carries this one text,
 * not the catalogue ({@link DEFAULT_MESSAGES}' `unavailable`).
 */
export const UNAVAILABLE_MESSAGE = 'This page is not available right now. Please try again later.';

/**
 * Every user-facing string the wizard shows that does not come from a step's
 * own configuration, with its English default. requirements §5, §8 and §9 fix the
 * texts that are quoted there; configuration `messages` overrides any of them
 * (requirements §14), so a page in another language has no English left.
 */
export const DEFAULT_MESSAGES = {
  required: 'This field is required',
  notBlank: 'This field cannot be blank',
  email: 'Enter a valid email address',
  digits: 'Enter a valid number',
  phone: 'Enter a valid phone number',
  zip: 'Enter a valid ZIP code',
  handle: 'Enter your username only',
  useHandle: 'Use {handle}',
  followers: 'Enter a valid number',
  url: 'Enter your website URL',
  maxLength: 'Use at most {max} characters',
  plainText: 'Remove the invisible or unsupported characters',
  maxItems: 'Choose at most {max}',
  maxReached: 'You have chosen {max}, the most this question takes. Remove one to choose another.',
  optionRemoved: 'You removed {name}.',
  option: 'Choose one of the options',
  notAsked: 'This page does not ask this',
  invalid: 'This value is not valid',
  platformRequired: 'Fill at least one platform',
  requiredPlatform: 'Fill the required platform',
  requiredPlatforms: 'Fill all required platforms',
  submitError: 'Something went wrong. Please, try again later.',
  noResults: 'No results found',
  selectPlaceholder: 'Select Option',
  searchPlaceholder: 'Search...',
  removeOption: 'Remove {name}',
  toggleOptions: 'Show options',
  selectedOptions: 'Selected',
  errorFallback: 'Sorry, something went wrong on this page. Your answers were not sent yet: please reload and try again.',
  reload: 'Reload',
  offline: 'You are offline. Your answers are kept; you can send them when you are back online.',
  sending: 'Sending…',
  stillSending: 'Still sending… Keep this page open: we are trying again, and your answers are kept.',
  unavailable: UNAVAILABLE_MESSAGE,
  noScript: 'This application form needs JavaScript.',
  closed: 'This campaign is closed and no longer takes applications. Thank you for your interest.',
  ageHeading: 'When were you born?',
  birthMonthLabel: 'Month',
  birthYearLabel: 'Year',
  ageCountryLabel: 'Country where you live',
  birthYearInvalid: 'Enter the year with four digits',
  birthYearTooEarly: 'Check the year',
  birthMonthFuture: 'This month has not come yet',
  ageEnded: 'Thank you for your interest. We cannot take your application on this page.',
  guardianHeading: 'Your parent or guardian',
  guardianIntro:
    'Before the team can read your application, a parent or guardian must agree to it. We will e-mail them what you send and what the brand will do with it.',
  guardianNameLabel: "Parent or guardian's full name",
  guardianEmailLabel: "Parent or guardian's email",
  guardianEmailOwn: "Enter your parent or guardian's own email address",
  guardianReview: 'We will ask {name} ({email}) to agree to your application.',
  guardianChange: "Change your parent or guardian's details",
  guardianNotAsked: 'We could not email your parent or guardian: their address has had too many requests today. Please apply again tomorrow.',
  guardianAsked: 'We have emailed your parent or guardian. The team will read your application once they agree.',
  ownEmailIsGuardians: 'This is the address you gave for your parent or guardian: enter your own',
  guardianEmailSubject: 'Your consent is asked for an application to {campaign}',
  guardianEmailBody:
    '{name} would like to apply to {campaign}, a brand campaign for creators, and named you as their parent or guardian. No one at the brand will read the application unless you agree.\n\nRead what they sent and answer by {date}. Without an answer by then, the application is erased.',
  guardianEmailButton: 'Read the application and answer',
  guardianPageTitle: 'Your consent for {name}',
  guardianPageIntro: '{name} would like to apply to {campaign} and named you as their parent or guardian. This is what they sent.',
  guardianPageUse:
    'If you agree, the {campaign} team will read the application to consider {name} for its creator campaigns, and may write to them by e-mail. It is kept at most {months} months, then erased. If you do not agree, it is erased now and no one at the brand sees it.',
  guardianConsent: 'I agree',
  guardianRefuse: 'I do not agree',
  guardianConsented: 'Thank you. The application is now with the {campaign} team.',
  guardianRefused: 'Thank you. The application was erased; no one at the brand saw it.',
  guardianLinkGone: 'This link no longer works: it was answered already, or its 7 days are over.',
  consentPageTitle: 'Your consents to {campaign}',
  consentPageIntro:
    'When you applied, you agreed to what is listed here. You can withdraw any of it, as easily as you gave it: the team is told, and it is no longer used from now on.',
  consentWithdraw: 'Withdraw',
  consentWithdrawnOn: 'Withdrawn on {date}',
  consentNone: 'There is nothing to withdraw: no consent was given with this application, or it was withdrawn already.',
  consentLinkGone: 'This link does not work: it was changed, or the application was erased.',
  resumeLater: 'Finish on another device',
  resumeLaterIntro: 'We will email you a link that opens this application with your answers, on any device. It works for 7 days; then your answers are erased.',
  resumeLaterSend: 'Email me the link',
  resumeLaterSent: 'We sent the link to {email}. It works until {date}.',
  resumeLaterTooMany: 'This address was sent too many links today. Please try again tomorrow.',
  resumeLaterEmailLabel: 'Your email, for the link',
  resumeLinkGone: 'This link no longer works: its application was sent, or its 7 days are over and its answers were erased. You can start again here.',
  resumeLinkBroken: 'This link is not complete: copy it again from the email, whole, or open it from the email.',
  resumeEmailSubject: 'Continue your application to {campaign}',
  resumeEmailBody:
    'Here is the link you asked for to continue your application to {campaign} on another device. It opens the application with the answers you gave, on any device, until {date}; then they are erased. Answers changed after you asked for it are not in it.\n\nIf you did not ask for it, ignore this email: the answers are erased on {date}, and no application is sent without the link.',
  resumeEmailButton: 'Continue my application',
  yes: 'Yes',
  no: 'No',
  continue: 'Continue',
  signIn: 'Sign In',
  submit: 'Submit application',
  back: 'Back',
  stepsLabel: 'Steps',
  stepPosition: 'Step {current} of {total}',
  requiredNote: 'Fields marked * are required.',
  firstNameLabel: 'First name',
  lastNameLabel: 'Last name',
  emailAddressLabel: 'Email',
  phoneCallingCodeLabel: 'Country code',
  phoneSubscriberLabel: 'Phone number',
  countryCodeLabel: 'Country',
  provinceCodeLabel: 'State / Province',
  addressFirstLineLabel: 'Address',
  addressSecondLineLabel: 'Apartment, suite, etc.',
  cityLabel: 'City',
  zipLabel: 'ZIP / Postal code',
  companyLabel: 'Company',
  websiteLabel: 'Website',
  handleLabel: '{platform} handle',
  followersLabel: '{platform} followers',
  urlLabel: '{platform} URL',
  monthlyTrafficLabel: '{platform} monthly traffic',
  followersPlaceholder: 'Followers',
  monthlyTrafficPlaceholder: 'Monthly visitors',
} as const;

/** The key of a user-facing message. */
export type MessageKey = keyof typeof DEFAULT_MESSAGES;
/** A complete message catalogue. */
export type Messages = Record<MessageKey, string>;

/**
 * Merges configuration overrides over {@link DEFAULT_MESSAGES}.
 * @param overrides - `messages` from the configuration; unknown keys are ignored.
 * @returns a complete catalogue.
 */
export function resolveMessages(overrides: Partial<Record<string, string>> | undefined): Messages {
  const messages: Messages = { ...DEFAULT_MESSAGES };
  for (const key of Object.keys(DEFAULT_MESSAGES) as MessageKey[]) {
    const value = overrides?.[key];
    if (typeof value === 'string') messages[key] = value;
  }
  return messages;
}

/** The texts of a searchable select (a combobox with its listbox), from a page's messages. */
export interface SelectTexts {
  placeholder: string;
  searchPlaceholder: string;
  noResults: string;
  /** Accessible name of a chip's remove button, `{name}` filled in. */
  remove: string;
  /** Accessible name of the toggle button. */
  toggle: string;
  /** Accessible name of the list of picked options (multi mode). */
  selected: string;
  /** Said politely (shown, and announced to screen readers) when a multi-select holds its maximum, `{max}` filled in. */
  maxReached: string;
  /** Said politely when a multi-select's pick is removed (Backspace, Delete, a chip's button), `{name}` filled in. */
  removed: string;
}

/**
 * A select's texts from a page's messages (requirements §14: translatable); `placeholder` replaces
 * `selectPlaceholder` ('Select Option', requirements §9) where a block configures its own.
 */
export function selectTexts(messages: Messages, placeholder?: string): SelectTexts {
  return {
    placeholder: placeholder ?? messages.selectPlaceholder,
    searchPlaceholder: messages.searchPlaceholder,
    noResults: messages.noResults,
    remove: messages.removeOption,
    toggle: messages.toggleOptions,
    selected: messages.selectedOptions,
    maxReached: messages.maxReached,
    removed: messages.optionRemoved,
  };
}

/**
 * Fills `{name}` placeholders of a message.
 * @example formatMessage('Use at most {max} characters', { max: 10 }) // 'Use at most 10 characters'
 */
export function formatMessage(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : match));
}
