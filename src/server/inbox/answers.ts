import { createRequire } from 'node:module';
import type { FilterQuestion, LabelledAnswer } from '../../shared/admin';
import type { Block, WizardConfig } from '../../shared/config';
import type { Messages } from '../../shared/messages';
import { blockDefinition, type AnswerSource } from '../../shared/blocks';
import { COUNTRY_PATH, PHONE_PATH } from '../../shared/blocks/personal-info';
import { AGE_BIRTH_MONTH_PATH, AGE_COUNTRY_PATH } from '../../shared/age-limits';
import { blocksOf } from '../../shared/form-values';
import { payloadPhoneE164 } from '../../shared/phone';

/**
 * One answer column of a page: the payload key and the question's label, as one line of plain
 * text; for a choice (a select, a yes/no answer, a checkbox), the names the applicant saw.
 */
export interface AnswerColumn extends AnswerSource {
  /**
   * A choice's stored values and the names the applicant saw for them, as plain text, where a
   * name differs from its value (a select's options; `Yes` and `No` as the page's `messages` say
   * them, requirements §7). `values`, for a multi-select: every option's value, longest first, to read an
   * answer that is the options picked joined with `, ` (a value may hold `, ` itself).
   */
  choices?: { names: Record<string, string>; values?: readonly string[] };
}

const require = createRequire(import.meta.url);

/**
 * html-to-text's converter for labels, built once on first use: the inbox needs it, starting the
 * server does not (the module and its HTML parser are ~5 MiB and tens of ms to load), and
 * `convert()` would build a new converter for every call.
 */
let toText: ((html: string) => string) | undefined;

/** A required mark at a label's end, as pages write it ("Describe your dream campaign *"). */
const REQUIRED_MARK = /(?:\s*\*)+$/;

/**
 * Configuration HTML (a question label) as one line of plain text, used as the question's name
 * (inbox detail, CSV header): without the required mark the applicant saw, so
 * "How often do you play? *" names its column "How often do you play?".
 */
export function labelText(html: string): string {
  toText ??= (require('html-to-text') as typeof import('html-to-text')).compile({
    wordwrap: false,
    selectors: [{ selector: 'a', options: { ignoreHref: true } }],
  });
  return toText(html).replace(/\s+/g, ' ').trim().replace(REQUIRED_MARK, '');
}

/** The prefix of a survey answer's payload key: `fields.howFamiliar` is the answer `howFamiliar`. */
const FIELDS_PREFIX = 'fields.';

/**
 * The survey questions of a page the list filters on, in the configuration's order:
 * each `fields.*` value a block asks for and sends, labelled as {@link answerColumns} labels it;
 * selects, yes/no answers and checkboxes as choices, multi-selects as `multiple` (a select's
 * options with their names; `Yes` and `No` as the page's `messages` say them, the payload storing
 * them so: requirements §7), the rest as text. Platforms sent in `fields` are left out: the platform
 * filter covers them. The summary counts the same questions.
 */
export function filterQuestions(config: WizardConfig): FilterQuestion[] {
  const labels = new Map(answerColumns(config).map((column) => [column.key, column.label]));
  return surveyQuestions(config).map((question): FilterQuestion => {
    const { key, path, block } = question;
    const label = labels.get(path)!;
    if (question.kind === 'text') return { key, label, kind: 'text' };
    const names = choiceNames(block, config.messages);
    return { key, label, kind: question.kind, options: question.values.map((value) => ({ value, label: names.get(value) ?? value })) };
  });
}

/**
 * The keys of the questions a page offers as choices ({@link filterQuestions}' `choice` and
 * `multiple`): the answers the store counts per value in its tallies (store/tallies.ts,
 * `setTalliedQuestions`). Without labels, so the server's start does not load html-to-text.
 */
export function choiceQuestionKeys(config: WizardConfig): string[] {
  return surveyQuestions(config)
    .filter((question) => question.kind !== 'text')
    .map((question) => question.key);
}

/**
 * The survey questions of {@link filterQuestions}, in the configuration's order, without their
 * labels: each `fields.*` value a block asks for and sends and names as an answer (the agreement
 * checkbox names none), the single-field platforms aside; its key, path, kind and stored values.
 */
function surveyQuestions(
  config: WizardConfig,
): ({ key: string; path: string; block: Block } & ({ kind: 'text' } | { kind: 'choice' | 'multiple'; values: readonly string[] }))[] {
  const questions: ReturnType<typeof surveyQuestions> = [];
  const blocks = blocksOf(config);
  const answered = new Set(
    blocks.flatMap((block) =>
      blockDefinition(block)
        .answers(block, config.messages)
        .map((answer) => answer.key),
    ),
  );
  for (const block of blocks) {
    for (const [path, field] of blockDefinition(block).fields(block)) {
      if (!path.startsWith(FIELDS_PREFIX) || field.sent === false || !answered.has(path) || path.startsWith(`${FIELDS_PREFIX}single.`)) continue;
      const key = path.slice(FIELDS_PREFIX.length);
      if (questions.some((question) => question.key === key)) continue;
      const values = field.kind === 'boolean' ? ['Yes', 'No'] : field.kind === 'choice' || field.kind === 'list' ? (field.options ?? []) : undefined;
      questions.push(values ? { key, path, block, kind: field.kind === 'list' ? 'multiple' : 'choice', values } : { key, path, block, kind: 'text' });
    }
  }
  return questions;
}

/**
 * Every answer a page asks for, in the configuration's order (one
 * CSV column per answer), labelled with the question as the applicant saw it
 * (block labels, or the page's `messages` for personal info and platforms): each block's shared
 * definition gives its columns, after the age screen's (its month of birth, its country where the
 * minimum is by country, a minor's guardian where the page asks for one). The agreement checkbox gives none: its answer is never sent (requirements §7).
 */
export function answerColumns(config: WizardConfig): AnswerColumn[] {
  const columns: AnswerColumn[] = [];
  // The age screen's answers, asked first (requirements §20), under the page's own words for them.
  const screen = config.ageScreen;
  if (screen) {
    const { messages } = config;
    columns.push({ key: 'age.birthMonth', label: labelText(messages.ageHeading) || 'age.birthMonth' });
    if (screen.minimumAge === 'byCountry') columns.push({ key: 'age.countryCode', label: labelText(messages.ageCountryLabel) || 'age.countryCode' });
    if (screen.minors === 'guardian') {
      columns.push({ key: 'guardian.name', label: labelText(messages.guardianNameLabel) || 'guardian.name' });
      columns.push({ key: 'guardian.emailAddress', label: labelText(messages.guardianEmailLabel) || 'guardian.emailAddress' });
    }
  }
  for (const block of blocksOf(config)) {
    const fields = new Map(blockDefinition(block).fields(block));
    for (const { key, label } of blockDefinition(block).answers(block, config.messages)) {
      if (columns.some((column) => column.key === key)) continue;
      const column: AnswerColumn = { key, label: labelText(label) || key };
      const field = fields.get(key);
      const choice = field?.kind === 'choice' || field?.kind === 'list' || field?.kind === 'boolean';
      if (choice) {
        const names = Object.fromEntries([...choiceNames(block, config.messages)].filter(([value, name]) => name !== '' && name !== value));
        if (Object.keys(names).length > 0)
          column.choices = field.kind === 'list' ? { names, values: [...(field.options ?? [])].sort((a, b) => b.length - a.length) } : { names };
      }
      columns.push(column);
    }
  }
  return columns;
}

/**
 * The names the applicant saw for a block's stored choices, as plain text (its definition's
 * `choices`: a select's options by value, as the wizard shows them; `Yes` and `No` as the page's
 * `messages` say them, reduced to text); none for a block without choices.
 */
function choiceNames(block: Block, messages: Messages): Map<string, string> {
  return new Map((blockDefinition(block).choices?.(block, messages) ?? []).map(({ value, name, html }) => [value, html ? labelText(name) : name]));
}

/**
 * The options a multi-select's answer holds: its values joined with `, ` (requirements §7), read against
 * the options' values (longest first), so a value that holds `, ` is read whole; a part no option
 * has is read up to the next `, `.
 */
function pickedValues(answer: string, values: readonly string[]): string[] {
  const picked: string[] = [];
  for (let at = 0; at < answer.length;) {
    const known = values.find(
      (value) => value !== '' && answer.startsWith(value, at) && (at + value.length === answer.length || answer.startsWith(', ', at + value.length)),
    );
    const next = answer.indexOf(', ', at);
    const end = known !== undefined ? at + known.length : next === -1 ? answer.length : next;
    picked.push(answer.slice(at, end));
    at = end + 2;
  }
  return picked;
}

/** A stored choice as the applicant saw it ({@link AnswerColumn.choices}); undefined when that is the value itself. */
function choiceText(value: string, choices: AnswerColumn['choices']): string | undefined {
  if (!choices) return undefined;
  const { names, values } = choices;
  const text = values
    ? pickedValues(value, values)
        .map((part) => names[part] ?? part)
        .join(', ')
    : (names[value] ?? value);
  return text === value ? undefined : text;
}

const record = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});

/**
 * Reads one column's answer from stored payloads: the key is worked out once, so an export reads
 * many payloads without splitting it again for each. The function returns the answer
 * as text ('' when not answered or not text); the phone in E.164, `+447400123456`.
 */
export function answerReader(key: string): (payload: unknown) => string {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  if (key === PHONE_PATH) {
    return (payload) => {
      const phone = record(record(record(payload).personalInfo).phone);
      if (typeof phone.subscriber !== 'string' || phone.subscriber === '') return '';
      // E.164, the NANP 7-digit forms with their area code, as the phone_e164 column
      // holds it; a row stored before the server checked numbers keeps the form it can have.
      return payloadPhoneE164(phone) || `+${String(phone.countryCode ?? '')} ${phone.subscriber}`;
    };
  }
  if (key.startsWith('fields.')) {
    const name = key.slice('fields.'.length);
    return (payload) => text(record(record(payload).fields)[name]);
  }
  const parts = key.split('.');
  return (payload) => {
    let node: unknown = payload;
    for (const part of parts) node = record(node)[part];
    // A consent travels as a boolean (requirements §21): read as the checkbox's Yes and No are stored.
    return typeof node === 'boolean' ? (node ? 'Yes' : 'No') : text(node);
  };
}

/** The stored answer at a column's key, as text ('' when not answered); the phone in E.164, `+447400123456`. */
export function answerValue(payload: unknown, key: string): string {
  return answerReader(key)(payload);
}

/**
 * The answers of one application with their labels, in the configuration's
 * order; answers the configuration no longer asks for follow, labelled with their key. A choice
 * whose name differs from the value stored carries it as `text` (the detail shows both).
 */
export function labelledAnswers(columns: readonly AnswerColumn[], payload: unknown): LabelledAnswer[] {
  const answers = columns.flatMap(({ key, label, choices }): LabelledAnswer[] => {
    const value = answerValue(payload, key);
    if (value === '') return [];
    const text = choiceText(value, choices);
    return [text === undefined ? { key, label, value } : { key, label, value, text }];
  });
  const known = new Set(columns.map((column) => column.key));
  for (const [name, value] of Object.entries(record(record(payload).fields))) {
    const key = `fields.${name}`;
    if (!known.has(key) && typeof value === 'string' && value !== '') answers.push({ key, label: name, value });
  }
  return answers;
}

/** Per language: its countries' names (`Intl.DisplayNames`, English where it has none) and its months (`July 2012`). Making one costs more than the rest of a confirmation. */
const readers = new Map<string, { regions: Intl.DisplayNames; months: Intl.DateTimeFormat }>();

/**
 * `answers` as a person reads them in `lang` (BCP 47), for the messages and pages people outside the
 * team read (the confirmation e-mail, the guardian's page): a country by its name and code
 * (`Royaume-Uni (GB)`), the month of birth in words (`juillet 2012`); the rest as they are.
 */
export function readableAnswers(answers: LabelledAnswer[], lang: string): LabelledAnswer[] {
  let reader = readers.get(lang);
  if (!reader) {
    let locales = [lang, 'en'];
    try {
      Intl.getCanonicalLocales(lang);
    } catch {
      locales = ['en'];
    }
    reader = {
      regions: new Intl.DisplayNames(locales, { type: 'region', fallback: 'code' }),
      months: new Intl.DateTimeFormat(locales, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    };
    readers.set(lang, reader);
  }
  const { regions, months } = reader;
  return answers.map((answer) => {
    if ((answer.key === COUNTRY_PATH || answer.key === AGE_COUNTRY_PATH) && /^[A-Z]{2}$/.test(answer.value))
      return { ...answer, text: `${regions.of(answer.value) ?? answer.value} (${answer.value})` };
    const month = answer.key === AGE_BIRTH_MONTH_PATH ? /^(\d{4})-(\d{2})$/.exec(answer.value) : null;
    if (month) return { ...answer, text: months.format(Date.UTC(Number(month[1]), Number(month[2]) - 1, 1)) };
    return answer;
  });
}

/**
 * The answer columns of each page, worked out on first use (question labels come from
 * configuration HTML through html-to-text: once, on the inbox's first use rather than at start
 * (decision 012), and not per request).
 * @returns the columns of a page; for another or no page, every page's columns in the order met.
 */
export function answerColumnsByPage(pages: ReadonlyMap<string, WizardConfig>): (pageId?: string) => AnswerColumn[] {
  let byPage: Map<string, AnswerColumn[]> | undefined;
  const everyPage: AnswerColumn[] = [];
  return (pageId) => {
    if (!byPage) {
      byPage = new Map([...pages].map(([id, config]) => [id, answerColumns(config)]));
      for (const columns of byPage.values()) {
        for (const column of columns) if (!everyPage.some((c) => c.key === column.key)) everyPage.push(column);
      }
    }
    return (pageId && byPage.get(pageId)) || everyPage;
  };
}
