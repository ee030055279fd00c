import type { ApplicationSummary, SummaryQuestion } from '../../shared/admin';
import type { WizardConfig } from '../../shared/config';
import { isAgreementPath } from '../../shared/blocks/checkbox';
import { yesNoPaths } from '../../shared/blocks/yes-no';
import { blocksOf } from '../../shared/form-values';
import { PLATFORM_LABELS, type PlatformName } from '../../shared/platforms';
import type { AnswerTally, SummaryCounts, SummaryRequest } from '../store/summary';
import { labelText } from './answers';

/** A question the summary counts, from the page's configuration. */
export interface SummarisedQuestion {
  /** The payload key, `fields.howOften`. */
  key: string;
  /** The question as the inbox labels it ({@link labelText}). */
  label: string;
  kind: SummaryQuestion['kind'];
  /** The options in the configuration's order: the stored value and the label the applicant saw; `[]` for free text. */
  options: { value: string; label: string }[];
}

/** What the summary of one page counts: its questions and its platforms, in the configuration's order. */
export interface SummaryPlan {
  questions: SummarisedQuestion[];
  platforms: PlatformName[];
}

/** The prefix of survey answers' keys: only those are summarised (they are stored flat in `payload.fields`). */
const FIELDS = 'fields.';

/**
 * The questions and platforms of a page the summary counts (issue 16), from its configuration:
 * single selects (`choice`), multi-selects (`multiple`), yes/no answers and checkboxes other than
 * the agreement (`choice`, Yes and No labelled with the page's `messages`, as the payload stores
 * them: SPEC §7), the yes/no's text box and text fields (`text`, counted as answered only); and
 * every platform its platforms blocks offer. Questions outside `fields` (personal info) are left to
 * the list's own filters.
 */
export function summaryPlan(config: WizardConfig): SummaryPlan {
  const questions: SummarisedQuestion[] = [];
  const platforms: PlatformName[] = [];
  const yesNo = [
    { value: 'Yes', label: config.messages.yes },
    { value: 'No', label: config.messages.no },
  ];
  const add = (key: string, label: string, kind: SummaryQuestion['kind'], options: SummarisedQuestion['options']) => {
    if (key.startsWith(FIELDS) && !questions.some((question) => question.key === key)) questions.push({ key, label: labelText(label) || key, kind, options });
  };
  for (const block of blocksOf(config)) {
    switch (block.component) {
      case 'select':
        add(block.data.path, block.data.label, block.data.multiple ? 'multiple' : 'choice', block.data.options.map((option) => ({ value: option.value, label: option.name })));
        break;
      case 'yesNo': {
        const paths = yesNoPaths(block.data.path);
        add(paths.value, block.data.label, 'choice', yesNo);
        add(paths.text, block.data.textLabel, 'text', []);
        break;
      }
      case 'checkbox':
        if (!isAgreementPath(block.data.path)) add(block.data.path, block.data.label, 'choice', yesNo);
        break;
      case 'textField':
        add(block.data.path, block.data.label ?? block.data.placeholder ?? block.data.path, 'text', []);
        break;
      case 'platforms':
        for (const platform of block.data.platforms) if (!platforms.includes(platform.name)) platforms.push(platform.name);
        break;
      default:
        break;
    }
  }
  return { questions, platforms };
}

/** What the store is asked to count for a {@link SummaryPlan}: keys without their `fields.` prefix. */
export function summaryRequest(plan: SummaryPlan): SummaryRequest {
  const key = (question: SummarisedQuestion) => question.key.slice(FIELDS.length);
  return {
    choiceKeys: plan.questions.filter((question) => question.kind !== 'text').map(key),
    textKeys: plan.questions.filter((question) => question.kind === 'text').map(key),
    platforms: plan.platforms,
  };
}

/** Whether a multi-select's stored answer (choices joined with `, `, SPEC §7) holds `option`. */
const picked = (joined: string, option: string) => `, ${joined}, `.includes(`, ${option}, `);

/** One question's distribution from the store's tallies of its key. */
function summariseQuestion(question: SummarisedQuestion, tallies: readonly AnswerTally[]): SummaryQuestion {
  const counts = new Map(question.options.map((option) => [option.value, 0]));
  let answered = 0;
  let other = 0;
  // The pieces a multi-select's options are made of: an option holding `, ` is split like the answer.
  const pieces = new Set(question.options.flatMap((option) => option.value.split(', ')));
  for (const { value, count } of tallies) {
    answered += count;
    if (question.kind === 'text') continue;
    if (question.kind === 'choice') {
      if (counts.has(value)) counts.set(value, counts.get(value)! + count);
      else other += count;
      continue;
    }
    for (const option of question.options) if (picked(value, option.value)) counts.set(option.value, counts.get(option.value)! + count);
    if (value.split(', ').some((piece) => !pieces.has(piece))) other += count;
  }
  return {
    key: question.key,
    label: question.label,
    kind: question.kind,
    answered,
    options: question.options.map((option) => ({ ...option, count: counts.get(option.value)! })),
    other,
  };
}

/** The `GET /api/admin/summary` answer of a page from its plan and the store's counts. */
export function applicationSummary(pageId: string, plan: SummaryPlan, counts: SummaryCounts): ApplicationSummary {
  const byKey = new Map<string, AnswerTally[]>();
  for (const tally of counts.answers) byKey.set(tally.key, [...(byKey.get(tally.key) ?? []), tally]);
  return {
    pageId,
    matched: counts.matched,
    platforms: plan.platforms.map((platform) => ({ platform, label: PLATFORM_LABELS[platform], count: counts.platforms[platform] ?? 0 })),
    questions: plan.questions.map((question) => summariseQuestion(question, byKey.get(question.key.slice(FIELDS.length)) ?? [])),
  };
}
