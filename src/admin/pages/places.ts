import type { Block } from '../../shared/config';
import { DEFAULT_MESSAGES, type MessageKey } from '../../shared/messages';
import { PLATFORM_LABELS, type PlatformName } from '../../shared/platforms';
import { BLOCK_LABELS, answerFields } from './answers';
import { asArray, asText, getAt, isObject } from './draft';

/**
 * The team's names for places in the draft (a newcomer's review, decision 021): an answer by its
 * question and step ("“How often do you play?” (step 3)") rather than `fields.howOften`, and a
 * problem's field by its place and label ("Step 3, block 7: Answer name") rather than
 * `steps[2].blocks[6].data.path`. The JSON path stays the key; these are what is shown.
 */

/** Text of HTML, its tags dropped and spaces folded, cut to `max` characters. */
export function plainText(html: unknown, max = 50): string {
  const text = asText(html)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const message = (key: string) => (DEFAULT_MESSAGES as Record<string, string>)[key as MessageKey];

/** An answer of a personal-details or platforms block by its field's label ("Phone number", "Instagram handle"). */
function fieldName(path: string): string | undefined {
  const [head, ...rest] = path.split('.');
  if (head === 'personalInfo') {
    if (rest.join('.') === 'phone.countryCode') return `Phone: ${message('phoneCallingCodeLabel')?.toLowerCase() ?? 'country code'}`;
    if (rest.join('.') === 'phone.subscriber') return message('phoneSubscriberLabel');
    return message(`${rest[0]}Label`) ?? rest.join('.');
  }
  if (head === 'platforms' && rest.length === 2) {
    const platform = PLATFORM_LABELS[rest[0] as PlatformName] ?? rest[0]!;
    return (message(`${rest[1]}Label`) ?? `{platform} ${rest[1]}`).replace('{platform}', platform);
  }
  return undefined;
}

/** Every answer the draft's blocks ask, by path: its question's words and its step ("“Which colour?” (step 3)"). */
export function answerNames(draft: unknown): Map<string, string> {
  const names = new Map<string, string>();
  asArray(isObject(draft) ? draft.steps : undefined).forEach((step, s) => {
    for (const block of asArray(isObject(step) ? step.blocks : undefined)) {
      const data = isObject(block) && isObject(block.data) ? block.data : {};
      for (const [path] of answerFields(block)) {
        const own = fieldName(path);
        const question = plainText(data.label ?? data.title);
        const followUp = isObject(block) && block.component === 'yesNo' && path.endsWith('.text');
        const name = own ?? (question ? `“${question}”${followUp ? ', its follow-up' : ''}` : path);
        names.set(path, `${name} (step ${s + 1})`);
      }
    }
  });
  return names;
}

/** Labels of the page's own settings, by their JSON path's first keys (the Page, Messages and Publishing tabs' fields). */
const SETTING_LABELS: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  lang: 'Language',
  pageId: 'Page id',
  signUpUrl: 'Sign-up page address',
  requestUrl: 'Submit address',
  logo: 'Logo address',
  showLogo: 'Show the logo',
  centerLogo: 'Centre the logo',
  'styleConfig.theme.primary': 'Theme: primary colour',
  'styleConfig.theme.surface': 'Theme: background colour',
  'styleConfig.theme.text': 'Theme: text colour',
  'styleConfig.theme.radius': 'Theme: corner radius',
  'styleConfig.theme': 'Theme',
  'buttonText.continue': 'Buttons: Continue button',
  'buttonText.back': 'Buttons: Back button',
  'buttonText.signIn': "Buttons: last step's button",
  'buttonText.submit': 'Buttons: button of the step that sends the application',
  drafts: "Keep the applicant's answers",
  resumeLink: 'Offer a link to finish on another device',
  skipFinalStep: 'Skip the last step',
  centerFooterText: 'Centre the footer text',
  submitErrorText: 'Message when sending fails',
  'analytics.token': 'Mixpanel project token',
  'analytics.host': 'Mixpanel API host',
  'errorReporting.dsn': 'Sentry DSN',
  coverImages: 'Cover images',
  singleCoverImg: 'Single cover image',
  footerLinks: 'Footer links',
  messages: 'Messages',
  subdivisionNames: 'Names of states and provinces',
  steps: 'Steps',
  formItems: 'Rules and conditions',
  hosts: 'Host names',
  opensAt: 'Opens at',
  closesAt: 'Closes at',
  maxApplications: 'Closes after this many applications',
  status: 'Status',
  '(root)': 'The whole page (JSON)',
};

/** The labels of a block's settings (its `data` keys), as its form names them. */
const DATA_LABELS: Record<string, string> = {
  path: 'Answer name',
  label: 'Question',
  html: 'Text',
  title: 'Title',
  options: 'Options',
  placeholder: 'Placeholder',
  textLabel: 'Follow-up question',
  textPlaceholder: 'Follow-up placeholder',
  fields: 'Details asked',
  platforms: 'Platforms',
  labels: 'Labels',
  placeholders: 'Placeholders',
  multiple: 'Several answers may be chosen',
  maxSelections: 'Most answers that may be chosen',
  note: 'Note under the box',
  multiline: 'Long answer',
};

/** The parts of a JSON path: `steps[2].blocks[6].data.path` → `['steps', 2, 'blocks', 6, 'data', 'path']`. */
function partsOf(path: string): (string | number)[] {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((match) => (match[2] !== undefined ? Number(match[2]) : match[1]!));
}

/** A setting's words after its first parts: `options[1].value` → "option 2, value". */
function restOf(parts: (string | number)[], labels: Record<string, string>): string {
  const words: string[] = [];
  parts.forEach((part, index) => {
    if (typeof part === 'number') {
      if (words.length > 0) words[words.length - 1] = `${words[words.length - 1]!.replace(/s$/, '')} ${part + 1}`;
      else words.push(`item ${part + 1}`);
    } else words.push(index === 0 ? (labels[part] ?? part) : part === 'value' ? 'value stored' : part === 'name' ? 'name shown' : (labels[part] ?? part));
  });
  return words.join(', ');
}

/**
 * Where the field of a problem is, as the team reads it: "Step 3, block 7 (Text question): Answer
 * name", "Step 2: Name", "Rules of “Which colour?” (step 3): condition", "Theme: primary colour";
 * the JSON path itself when nothing better is known.
 */
export function placeOf(path: string, draft: unknown): string {
  const parts = partsOf(path);
  const [first, second, third, fourth] = parts;
  if (first === 'steps' && typeof second === 'number') {
    const step = `Step ${second + 1}`;
    if (third === 'blocks' && typeof fourth === 'number') {
      const component = asText(getAt(draft, ['steps', second, 'blocks', fourth, 'component']));
      const kind = BLOCK_LABELS[component as Block['component']];
      const where = `${step}, block ${fourth + 1}${kind ? ` (${kind})` : ''}`;
      const rest = parts[4] === 'data' ? parts.slice(5) : parts.slice(4);
      return rest.length > 0 ? `${where}: ${restOf(rest, DATA_LABELS)}` : where;
    }
    if (third === 'blocks') return `${step}: its blocks`;
    const rest = parts.slice(2);
    const STEP_LABELS: Record<string, string> = {
      name: 'name',
      continueButtonText: 'Continue button',
      footer: 'footer',
      hideConfirmButton: 'hide the Continue button',
      styles: 'styles',
    };
    return rest.length > 0 ? `${step}: ${restOf(rest, STEP_LABELS)}` : step;
  }
  if (first === 'formItems' && typeof second === 'number') {
    const answer = asText(getAt(draft, ['formItems', second, 'path']));
    const named = answerNames(draft).get(answer) ?? (answer ? `“${answer}”, which no block asks` : `rule ${second + 1}`);
    const rest = parts.slice(2);
    const ITEM_LABELS: Record<string, string> = { path: 'answer', validators: 'checks', showOnCondition: 'condition' };
    const words = rest.map((part) =>
      typeof part === 'number' ? `${part + 1}` : part === 'path' && rest[0] === 'showOnCondition' ? 'answer tested' : (ITEM_LABELS[part] ?? part),
    );
    return `Rules of ${named}${words.length > 0 ? `: ${words.join(' ')}` : ''}`;
  }
  if (first === 'messages' && typeof second === 'string') return `Messages: ${messageLabel(second)}`;
  for (let cut = parts.length; cut > 0; cut--) {
    const key = parts.slice(0, cut).join('.');
    const label = SETTING_LABELS[key];
    if (label) return cut === parts.length ? label : `${label}: ${restOf(parts.slice(cut), {})}`;
  }
  return path;
}

/** A message's human label ("closed" → "Page closed"): its key's words, from the Messages tab's list. */
export function messageLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/^./, (letter) => letter.toUpperCase());
  return MESSAGE_LABELS[key] ?? words;
}

/** Messages whose key alone does not say where they are shown. */
const MESSAGE_LABELS: Record<string, string> = {
  required: 'Error: an answer is missing',
  notBlank: 'Error: only spaces were typed',
  email: 'Error: not an e-mail address',
  digits: 'Error: not digits only',
  phone: 'Error: not a phone number',
  zip: 'Error: not a ZIP or postal code',
  handle: 'Error: not a user name',
  useHandle: 'Error: a link typed for a user name',
  followers: 'Error: followers not a number',
  url: 'Error: not a website address',
  maxLength: 'Error: too long',
  plainText: 'Error: markup typed',
  maxItems: 'Error: too many chosen',
  invalid: 'Error: not a valid answer',
  submitError: 'Sending failed',
  errorFallback: 'Something went wrong on the page',
  closed: 'Page closed (shown instead of the form)',
  offline: 'Offline notice',
  continue: 'Continue button',
  back: 'Back button',
  signIn: "Last step's button",
  submit: 'Button of the step that sends the application',
  stepPosition: 'Step position on a phone (Step 2 of 4)',
  requiredNote: 'What the required mark means',
  yes: 'Yes (answer)',
  no: 'No (answer)',
  stepsLabel: 'Step bar (for screen readers)',
};
