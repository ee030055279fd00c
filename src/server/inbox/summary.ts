import type { ApplicationSummary, SummaryQuestion } from '../../shared/admin';
import type { WizardConfig } from '../../shared/config';
import { isAgreementPath } from '../../shared/blocks/checkbox';
import { yesNoPaths } from '../../shared/blocks/yes-no';
import { blocksOf } from '../../shared/form-values';
import { PLATFORM_LABELS, type PlatformName } from '../../shared/platforms';
import type { SummaryCounts, SummaryRequest } from '../store/summary';
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

/** What the store is asked to count for a {@link SummaryPlan}: keys without their `fields.` prefix, the options' stored values. */
export function summaryRequest(plan: SummaryPlan): SummaryRequest {
  return {
    questions: plan.questions.map((question) => ({ key: question.key.slice(FIELDS.length), kind: question.kind, options: question.options.map((option) => option.value) })),
    platforms: plan.platforms,
  };
}

/** The `GET /api/admin/summary` answer of a page from its plan and the store's counts (made for {@link summaryRequest} of the same plan). */
export function applicationSummary(pageId: string, plan: SummaryPlan, counts: SummaryCounts): ApplicationSummary {
  return {
    pageId,
    matched: counts.matched,
    platforms: plan.platforms.map((platform) => ({ platform, label: PLATFORM_LABELS[platform], count: counts.platforms[platform] ?? 0 })),
    questions: plan.questions.map((question, index): SummaryQuestion => {
      const counted = counts.questions[index] ?? { answered: 0, options: [], other: 0 };
      return {
        key: question.key,
        label: question.label,
        kind: question.kind,
        answered: counted.answered,
        options: question.options.map((option, at) => ({ ...option, count: counted.options[at] ?? 0 })),
        other: counted.other,
      };
    }),
  };
}
