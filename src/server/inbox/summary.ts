import type { ApplicationSummary, SummaryQuestion } from '../../shared/admin';
import type { WizardConfig } from '../../shared/config';
import { blockDefinition } from '../../shared/blocks';
import { platformRowPaths } from '../../shared/blocks/platforms';
import { blocksOf } from '../../shared/form-values';
import { PLATFORM_LABELS, PLATFORM_NAMES, type PlatformName } from '../../shared/platforms';
import type { SummaryCounts, SummaryRequest } from '../store/summary';
import { filterQuestions } from './answers';

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
 * The questions and platforms of a page the summary counts, from its configuration:
 * the questions the list filters on ({@link filterQuestions}: selects and yes/no answers and
 * checkboxes other than the agreement as `choice`, Yes and No labelled with the page's
 * `messages`; multi-selects as `multiple`; the yes/no's text box and text fields as `text`,
 * counted as answered only), and every platform its blocks ask for (each block's shared field
 * paths), in the configuration's order. Questions outside `fields` (personal info) are left to
 * the list's own filters.
 */
export function summaryPlan(config: WizardConfig): SummaryPlan {
  const questions = filterQuestions(config).map((question) => ({
    key: `${FIELDS}${question.key}`,
    label: question.label,
    kind: question.kind,
    options: question.options ?? [],
  }));
  const asked = new Set(
    blocksOf(config).flatMap((block) =>
      blockDefinition(block)
        .fields(block)
        .map(([path]) => path),
    ),
  );
  const platforms = PLATFORM_NAMES.filter((platform) => asked.has(platformRowPaths(platform).identity));
  return { questions, platforms };
}

/** What the store is asked to count for a {@link SummaryPlan}: keys without their `fields.` prefix, the options' stored values. */
export function summaryRequest(plan: SummaryPlan): SummaryRequest {
  return {
    questions: plan.questions.map((question) => ({
      key: question.key.slice(FIELDS.length),
      kind: question.kind,
      options: question.options.map((option) => option.value),
    })),
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
