import type { Condition, ValidatorName } from '../form-items';
import type { MessageKey, Messages } from '../messages';
import type { PlatformName } from '../platforms';

/**
 * What every block component of the registry (requirements §14) defines once, in its own module of
 * src/shared/blocks: the data schema a configuration's block is parsed with, the
 * form-value paths it asks for and their kinds, the rules it brings by itself, its starting values
 * and its inbox answer columns. The wizard's block component, the server's payload reader and
 * configuration checks, and the inbox all read these; none of them switches on the component.
 */

/**
 * One rule on one path: a named validator of the configuration, "required when `with` is filled",
 * or a membership rule a block brings by itself: `oneOf` (the configured options; for a
 * list, each element), `country` (ISO 3166-1 alpha-2), `callingCode` (an E.164 calling code of the
 * country table), `subdivision` (a state or province of the country at `with`) and `count` (digits
 * once grouping separators are removed) and `phone` (a subscriber number valid for the calling
 * code at `with`).
 */
export interface Rule {
  name: ValidatorName | 'requiredWith' | 'oneOf' | 'country' | 'callingCode' | 'subdivision' | 'count' | 'phone';
  /** Argument (maxLength). */
  value?: number;
  /** For `handle` on a platform row: the platform whose published user-name rule applies too. */
  platform?: PlatformName;
  /** For `oneOf`: the values allowed. */
  options?: readonly unknown[];
  /** For `requiredWith`: the other path; for `subdivision`: the country's path. */
  with?: string;
  /** For `requiredWith`: a value of the other path that does not count as filled (a default). */
  unlessWith?: string;
  /**
   * For `requiredWith` on a phone number: the path of a country whose calling codes do not count as
   * filled either (the calling code follows the country by itself, requirements §4).
   */
  unlessCallingCodeOf?: string;
  /** Message key used instead of the validator's own. */
  message?: MessageKey;
}

/** A path the form validates, with its rules and condition. */
export interface ValidationTarget {
  path: string;
  rules: Rule[];
  /** While false, the item is hidden or disabled: not validated and not sent. */
  condition?: Condition;
  /** Set when the condition comes from configuration: the item is then required while it holds (requirements §5). */
  conditional?: boolean;
  /** A yes/no answer: `false` ('No') is an answer, so `required` holds for it (a checkbox's `false` is not). */
  yesNo?: true;
  /** For the platform-filled flag: the platforms it checks and which are required. */
  platforms?: { name: PlatformName; required: boolean }[];
}

/**
 * What a form-value path holds: typed text, a count (followers, monthly traffic), a yes/no or
 * checkbox boolean, a multi-select list, a choice from a list (a single select, country, province,
 * calling code) or a phone number. It decides how an answer travels in the payload (requirements §7) and
 * which validators and condition values fit it.
 */
export type ValueKind = 'text' | 'count' | 'boolean' | 'list' | 'choice' | 'phone';

/** One form-value path a page asks for: its kind and, for a select, its option values. */
export interface PageField {
  kind: ValueKind;
  options?: readonly string[];
  /** False for a value the wizard never sends (the agreement checkbox, requirements §7). */
  sent?: false;
}

/** One inbox and CSV answer column a block gives: the payload key and the question as configured (HTML allowed). */
export interface AnswerSource {
  /** `personalInfo.firstName`, `personalInfo.phone`, `platforms.instagram.handle`, `fields.howOften`. */
  key: string;
  /** The label as the applicant saw it; the inbox reduces it to one line of text. */
  label: string;
}

/** Reports one problem of a configuration: its JSON path, what is wrong, and how to mend it. */
export type ProblemSink = (path: string, message: string, hint: string) => void;

/** What a block's own check ({@link BlockDefinition.check}) may read of the rest of its page. */
export interface PageView {
  /** Every answer the page's blocks ask, by path, with its kind. */
  fields: ReadonlyMap<string, PageField>;
  /** Every path the page validates, with its rules and condition (the page's items merged in). */
  targets: readonly ValidationTarget[];
  /** The index of the page's item (`formItems[i]`) for `path`; -1 when it has none. */
  formItemIndex(path: string): number;
}

/** The definition of one block component; `B` is the block as its schema parses it. */
export interface BlockDefinition<B> {
  /** The form-value paths the block asks for, in order, with their kinds. */
  fields(block: B): [string, PageField][];
  /** The paths the block validates and the rules it brings by itself (configured validators merge in by path). */
  targets(block: B): ValidationTarget[];
  /** Starting values other than "absent" (dotted path → value), so every control starts controlled. */
  initialValues?(block: B): [string, unknown][];
  /** The inbox and CSV columns of the block's answers, in order. */
  answers(block: B, messages: Messages): AnswerSource[];
  /** Form values the block's component reads besides its own paths and conditions (the wizard watches them). */
  reads?: readonly string[];
  /**
   * The block's own configuration checks beyond its schema (docs/configuration.md, "What
   * check-config refuses beyond the schema"): each problem reported through `problem`, its path
   * within `at` (`steps[s].blocks[b]`) or, for what the page's items do to its answers, at
   * `formItems[i]`. `page` is what the block may need of the rest of the page. The page-wide
   * checks (config-checks.ts) call it.
   */
  check?(block: B, at: string, problem: ProblemSink, page: PageView): void;
  /**
   * The paths whose control the block shows whatever a condition says (a platform row, the phone
   * number's parts, the country, a yes/no answer): a condition set on one of them is refused.
   */
  shownUnconditionally?(block: B): string[];
  /** Set when a page holds at most one such block: the problem said of a second one (`first`: where the first is). */
  onePerPage?: { message: (first: string) => string; hint: string };
  /** Set when the block's answer may sit outside "fields." (a checkbox: the agreement, asked and never sent). */
  answerOutsideFields?: true;
  /**
   * The group of answers the block owns (`personalInfo`, `platforms`): the payload's key its answers
   * travel under, where no other block's answer may sit.
   */
  group?: string;
  /** The HTML the block shows on its step (read for the step's heading). */
  shownHtml?(block: B): string;
  /**
   * The keys of the block's data that hold configured HTML (a schema's `configHtml`): every one is
   * sanitised before the server renders or inlines the page (src/shared/sanitize-html.ts), and
   * whatever is not listed is shown as text. Required, so that a new block says it (`[]`: none).
   */
  htmlData: readonly string[];
  /**
   * The names the applicant saw for the block's stored choices (a select's options by value; Yes and
   * No as the page's messages say them, which are HTML: `html` set), for the inbox and the CSV export.
   */
  choices?(block: B, messages: Messages): Choice[];
  /** The platforms the block asks for, as the payload's keys under `platforms` (`instagram`). */
  platforms?(block: B): string[];
  /**
   * Why no other block's answer may sit at `path` (split into its segments), or undefined: the
   * paths this kind of block reads as its own wherever a page has one (a platform's group under
   * `fields.single.`, a count named `followers`; the agreement flag, a checkbox's alone). The
   * configuration check asks every kind of block, whether the page has one or not.
   * @param component - the component of the block whose answer would sit there.
   */
  reservedPath?(segments: readonly string[], component: string): string | undefined;
}

/** One stored value of a choice and the name the applicant saw for it. */
export interface Choice {
  value: string;
  name: string;
  /** Set when `name` is HTML (a page's message), to be read as text. */
  html?: true;
}
