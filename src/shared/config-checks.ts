import { DEFAULT_DIGITAL_CONSENT_AGE, DIGITAL_CONSENT_AGES } from './age';
import type { ConfigProblem, Condition, WizardConfig } from './config-schema';
import { ANSWER_GROUPS, blockDefinition, reservedPathProblem, type PageView, type ValueKind } from './blocks';
import { PROVINCE_PATH, personalInfoPath } from './blocks/personal-info';
import { PLATFORM_FILLED_PATH } from './blocks/platforms';
import { blockFields, isSentPath, pageFields } from './form-values';
import { DEFAULT_MESSAGES, type MessageKey } from './messages';
import { PLATFORM_LABELS } from './platforms';
import { MAX_FIELD_COUNT, MAX_FIELD_KEY_LENGTH } from './rules';
import { validationTargets } from './validation';
import { DISJOINT_VALIDATORS, VALIDATOR_FITS, usernameRefuses, validatorFits } from './validator-fits';
import { submitOriginProblem } from './urls';
import { colord, extend } from 'colord';
import a11yPlugin from 'colord/plugins/a11y';

extend([a11yPlugin]);

/** The theme's defaults (the wizard's styles.css), and the white of text on the primary colour. */
export const DEFAULT_THEME = { primary: '#5a2d82', surface: '#ffffff', text: '#1f1f24' } as const;
const ON_PRIMARY = '#ffffff';
/** The error red of styles.css (`--error`), not a token: it must stay readable on the surface. */
const ERROR_RED = '#b3261e';
/** WCAG 2.2 success criterion 1.4.3: normal text needs a contrast of 4.5:1 with its background. */
const MIN_TEXT_CONTRAST = 4.5;
/** WCAG 2.2 success criterion 1.4.11: a control's border needs 3:1 with what is around it. */
const MIN_BORDER_CONTRAST = 3;
/** The shares of `--text` in styles.css's mixes with `--surface` (a test compares them with the style sheet). */
export const THEME_MIXES = { muted: 0.82, border: 0.52, grayBg: 0.05 } as const;

/** CSS `color-mix(in srgb, a share%, b)`: each sRGB channel, gamma-encoded, mixed linearly. */
function mixSrgb(a: string, share: number, b: string): string {
  const x = colord(a).toRgb();
  const y = colord(b).toRgb();
  const channel = (p: number, q: number) => Math.round(p * share + q * (1 - share));
  return colord({ r: channel(x.r, y.r), g: channel(x.g, y.g), b: channel(x.b, y.b) }).toHex();
}

/**
 * The contrasts a theme must keep, with the mixes styles.css makes of it (WCAG 2.2: 4.5:1 for text,
 * 1.4.3; 3:1 for a control's border, 1.4.11): text on the surface, muted text on the grey page,
 * borders on the surface, the buttons' white text on the primary colour, the primary colour as
 * text (links, Back) on the surface, and the error red on the surface. Each problem names the
 * token to change.
 */
export function themeContrastProblems(theme: { primary?: string | undefined; surface?: string | undefined; text?: string | undefined }): ConfigProblem[] {
  const { primary, surface, text } = { ...DEFAULT_THEME, ...Object.fromEntries(Object.entries(theme).filter(([, value]) => value !== undefined)) };
  const muted = mixSrgb(text, THEME_MIXES.muted, surface);
  const grayBg = mixSrgb(text, THEME_MIXES.grayBg, surface);
  const pairs: [token: 'text' | 'primary' | 'surface', foreground: string, background: string, what: string, minimum?: number][] = [
    ['text', text, surface, 'the text on the surface'],
    // The mixes: muted text (footers, placeholders, the step bar) on the page, grey or not, and borders.
    ['text', muted, grayBg, `the muted text (${muted}, mixed from the text and the surface) on the grey page`],
    ['text', mixSrgb(text, THEME_MIXES.border, surface), surface, "the controls' borders (mixed from the text and the surface)", MIN_BORDER_CONTRAST],
    ['primary', ON_PRIMARY, primary, "the buttons' white text on the primary colour"],
    ['primary', primary, surface, 'links and the Back button (the primary colour) on the surface'],
    ['surface', ERROR_RED, surface, 'error messages (red) on the surface'],
  ];
  return pairs.flatMap(([token, foreground, background, what, minimum = MIN_TEXT_CONTRAST]) => {
    const ratio = colord(foreground).contrast(background);
    if (ratio >= minimum) return [];
    const rule = minimum === MIN_TEXT_CONTRAST ? 'the 4.5:1 that text needs (WCAG 2.2, 1.4.3)' : 'the 3:1 that a control needs (WCAG 2.2, 1.4.11)';
    return [
      {
        path: `styleConfig.theme.${token}`,
        message: `${what} has a contrast of ${ratio}:1, under ${rule}`,
        hint: { text: 'darken the text or lighten the surface', primary: 'choose a darker primary colour', surface: 'choose a lighter surface' }[token],
      },
    ];
  });
}

/**
 * The semantic checks of a configuration (docs/configuration.md, "What check-config
 * refuses"): what the schema's shapes cannot see and would otherwise break a page silently. Run by
 * `parseWizardConfig`, so by `npm run check-config` and at server start. Each problem names its
 * JSON path and one line of reason.
 */

/** `text` with its percent-escapes decoded, or undefined when they are malformed (`%E0`). */
function decodedOrNot(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** A `fields` key's segments: what the payload accepts (src/shared/payload.ts), no prototype names. */
const FIELD_KEY_SEGMENT = /^[A-Za-z0-9_-]+$/;
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Why a block's own `path` cannot hold its answer, or undefined: answers travel under `fields.`
 * (requirements §7) as keys of at most 100 characters of letters, digits, `_`, `-` and dots; a checkbox may
 * also sit outside every group (`agreement`: asked, never sent).
 */
function blockPathProblem(component: string, outsideFields: boolean, path: string): string | undefined {
  const segments = path.split('.');
  if (segments.some((segment) => !FIELD_KEY_SEGMENT.test(segment) || PROTOTYPE_NAMES.has(segment) || /^\d+$/.test(segment))) {
    return `"${path}" is no answer path: use letters, digits, "_" and "-" between dots, not digits alone (the form would make a list of it)`;
  }
  const reserved = reservedPathProblem(segments, component);
  if (reserved) return reserved;
  if (segments[0] === 'fields')
    return path.length - 'fields.'.length > MAX_FIELD_KEY_LENGTH ? `"${path}" is longer than ${MAX_FIELD_KEY_LENGTH} characters after "fields."` : undefined;
  if (outsideFields && !ANSWER_GROUPS.includes(segments[0]!)) return undefined;
  return `a ${component} block's answer travels under "fields.", not at "${path}"`;
}

const KIND_NAMES: Record<ValueKind, string> = {
  text: 'a text',
  count: 'a count (it has its own number rule)',
  boolean: 'a yes/no answer',
  list: 'a multi-select answer',
  choice: 'a choice from a list',
  phone: 'a phone number',
};

/**
 * Checks a parsed configuration's meaning.
 * @returns the problems found, each with its JSON path (`formItems[3].validators[1]`); empty when sound.
 */
export function checkConfigSemantics(config: WizardConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const problem = (path: string, message: string, hint: string) => problems.push({ path, message, hint });
  const fields = pageFields(config);
  const known = (path: string) => fields.has(path) || path === PLATFORM_FILLED_PATH;
  // The step that asks each path (the first, should a path be asked twice: that is refused below).
  const stepOf = new Map<string, number>();
  config.steps.forEach((step, s) => step.blocks.forEach((block) => blockFields(block).forEach(([path]) => stepOf.has(path) || stepOf.set(path, s))));

  // Paths whose control shows whatever a condition says (platform rows, the phone's parts, the
  // country, a yes/no answer) and paths shown by a condition.
  const unconditional = new Set(config.steps.flatMap((step) => step.blocks.flatMap((block) => blockDefinition(block).shownUnconditionally?.(block) ?? [])));
  const targets0 = validationTargets(config);
  const ownRules = new Map(targets0.map((target) => [target.path, target.rules]));
  const page: PageView = { fields, targets: targets0, formItemIndex: (path) => config.formItems.findIndex((item) => item.path === path) };
  const conditionalPaths = new Map(
    targets0.flatMap((target) => (target.condition && target.conditional ? [[target.path, target.condition.path] as const] : [])),
  );

  const sentFields = [...fields.keys()].filter((path) => path.startsWith('fields.') && isSentPath(path));
  if (sentFields.length > MAX_FIELD_COUNT) {
    problem(
      'steps',
      `the page asks ${sentFields.length} answers under "fields.", more than an application's ${MAX_FIELD_COUNT}`,
      'ask fewer questions, or split the page',
    );
  }
  // A path is this server's: its own submit path only (decision 021's outside attack on the submit path's edges: any
  // other path, `/api/admin/…` say, would be sent every applicant's answers by their browsers).
  const requestPath = config.requestUrl?.startsWith('/') ? config.requestUrl : undefined;
  if (requestPath !== undefined) {
    const ownUrl = /^\/api\/syncPage\/([^/?#]+)$/.exec(requestPath);
    const named = ownUrl ? decodedOrNot(ownUrl[1]!) : undefined;
    if (!ownUrl) {
      problem(
        'requestUrl',
        `"${requestPath}" is no submit path of this server, which takes a page's applications at "/api/syncPage/${config.pageId}"`,
        'remove requestUrl (applications then come to this server), or use "" to send nothing',
      );
    } else if (named !== config.pageId) {
      problem(
        'requestUrl',
        `"${requestPath}" sends this page's applications to page "${ownUrl[1]}", whose rules would refuse them`,
        `remove requestUrl, or use "/api/syncPage/${config.pageId}"`,
      );
    }
  }

  // Block paths: where they may live, and each asked once (no path inside another's either).
  const asked: { path: string; at: string }[] = [];
  // Where the first block of each component a page may hold once is.
  const firstOfItsKind = new Map<string, string>();
  config.steps.forEach((step, s) =>
    step.blocks.forEach((block, b) => {
      const at = `steps[${s}].blocks[${b}]`;
      if ('path' in block.data) {
        const reason = blockPathProblem(block.component, blockDefinition(block).answerOutsideFields === true, block.data.path);
        if (reason)
          problem(
            `${at}.data.path`,
            reason,
            block.data.path.startsWith('fields.')
              ? 'give the answer another name, e.g. "fields.favouriteProduct"'
              : 'put the answer under "fields.", e.g. "fields.favouriteProduct"',
          );
      }
      let clashed = false;
      for (const [path] of blockFields(block)) {
        const clash = asked.find((other) => other.path === path || path.startsWith(`${other.path}.`) || other.path.startsWith(`${path}.`));
        if (clash && clashed) continue;
        clashed ||= clash !== undefined;
        if (clash) {
          problem(
            'path' in block.data ? `${at}.data.path` : at,
            clash.path === path ? `"${path}" is asked twice (first at ${clash.at})` : `"${path}" overlaps "${clash.path}" (asked at ${clash.at})`,
            'give each block its own path',
          );
        } else asked.push({ path, at });
      }
      const onePerPage = blockDefinition(block).onePerPage;
      if (onePerPage) {
        const first = firstOfItsKind.get(block.component);
        if (first === undefined) firstOfItsKind.set(block.component, at);
        else problem(at, onePerPage.message(first), onePerPage.hint);
      }
      blockDefinition(block).check?.(block, at, problem, page);
    }),
  );

  // Form items: a known path, once; validators that fit, with sound arguments; conditions.
  const seenItems = new Map<string, number>();
  config.formItems.forEach((item, i) => {
    const at = `formItems[${i}]`;
    const field = fields.get(item.path);
    if (!field) {
      problem(`${at}.path`, `no block of the page asks for "${item.path}"`, `use one of: ${[...fields.keys()].join(', ')}`);
    }
    const first = seenItems.get(item.path);
    if (first !== undefined) problem(`${at}.path`, `"${item.path}" has a form item already (formItems[${first}])`, 'merge the two items into one');
    else seenItems.set(item.path, i);
    item.validators.forEach((spec, v) => {
      const name = typeof spec === 'string' ? spec : spec.name;
      const value = typeof spec === 'string' ? undefined : spec.value;
      const vat = `${at}.validators[${v}]`;
      if (name === 'maxLength') {
        if (value === undefined || !Number.isInteger(value) || value < 1) {
          problem(
            vat,
            `maxLength needs a whole number of 1 or more${value === undefined ? '' : `, not ${value}`}`,
            'write { "name": "maxLength", "value": 200 }',
          );
        }
      } else if (value !== undefined) {
        problem(`${vat}.value`, `${name} takes no value`, `write "${name}"`);
      }
      if (field && !validatorFits(name, field.kind)) {
        problem(
          vat,
          `${name} does not fit ${KIND_NAMES[field.kind]}`,
          VALIDATOR_FITS[name].every((kind) => kind === 'text' || kind === 'phone') ? 'use it on a text answer' : 'remove it',
        );
      }
    });
    const names = item.validators.map((spec) => (typeof spec === 'string' ? spec : spec.name));
    names.forEach((name, v) => {
      if (names.indexOf(name) !== v) problem(`${at}.validators[${v}]`, `${name} is listed twice`, 'keep one');
    });
    // With the rules the block brings itself (`email` on the e-mail address, `zip`, `handle`).
    const ownRuleList = ownRules.get(item.path) ?? [];
    const own = ownRuleList.map((rule) => rule.name);
    for (const [one, other] of DISJOINT_VALIDATORS) {
      if ((names.includes(one) || own.includes(one)) && (names.includes(other) || own.includes(other)) && (names.includes(one) || names.includes(other))) {
        problem(`${at}.validators`, `no answer is both ${one} and ${other}, so "${item.path}" could never be filled`, `keep one of ${one} and ${other}`);
      }
    }
    for (const name of new Set(names)) {
      const platform = usernameRefuses(name, ownRuleList);
      if (platform) {
        problem(`${at}.validators`, `no ${PLATFORM_LABELS[platform]} user name passes ${name}, so "${item.path}" could never be filled`, `remove ${name}`);
      }
    }
    if (item.showOnCondition) {
      if (unconditional.has(item.path)) {
        problem(
          `${at}.showOnCondition`,
          `"${item.path}" is always shown (its control has no condition): its answer would be sent, or lost, against the condition`,
          'put the condition on another item, or remove it',
        );
      }
      checkCondition(item.showOnCondition, `${at}.showOnCondition`, item.path);
    }
  });

  function checkCondition(condition: Condition, at: string, own: string) {
    if (isSentPath(own) && !isSentPath(condition.path) && condition.path !== PLATFORM_FILLED_PATH && fields.has(condition.path)) {
      problem(
        `${at}.path`,
        `"${condition.path}" is never sent, so the server cannot judge "${own}" by it and would refuse every answer to it`,
        'point the condition at an answer that is sent',
      );
      return;
    }
    const target = conditionalPaths.get(condition.path);
    if (target) {
      problem(
        `${at}.path`,
        `"${condition.path}" is itself shown by a condition (on "${target}"): hidden, it keeps its answer, so the two sides would judge "${own}" differently`,
        `point the condition at "${target}"`,
      );
      return;
    }
    if (condition.path === own) {
      problem(`${at}.path`, 'a condition cannot depend on its own item', 'point the condition at another answer');
      return;
    }
    const field = fields.get(condition.path);
    if (!known(condition.path) || !field) {
      problem(`${at}.path`, `no block of the page asks for "${condition.path}"`, 'point the condition at an answer the page asks for');
      return;
    }
    const ownStep = stepOf.get(own);
    const readStep = stepOf.get(condition.path);
    if (ownStep !== undefined && readStep !== undefined && readStep > ownStep) {
      problem(
        `${at}.path`,
        `"${own}" (step ${ownStep + 1}) depends on "${condition.path}", asked later (step ${readStep + 1}): the step cannot be judged when it is left`,
        'point the condition at an answer of the same or an earlier step',
      );
      return;
    }
    const tested = [...(condition.equals !== undefined ? [condition.equals] : []), ...(condition.oneOf ?? [])];
    for (const value of tested) {
      const expected = field.kind === 'boolean' ? 'boolean' : 'string';
      if (field.kind === 'list') {
        problem(at, `"${condition.path}" is a multi-select answer: equals and oneOf never hold`, 'test it with "filled"');
        return;
      }
      if (field.kind === 'count' || field.kind === 'phone') {
        problem(
          at,
          `"${condition.path}" is ${field.kind === 'count' ? 'a count' : 'a phone number'}, typed as the applicant likes ("12,000") and cleaned when sent ("12000"): equals and oneOf cannot be relied on`,
          'test it with "filled"',
        );
        return;
      }
      if (typeof value !== expected) {
        problem(
          at,
          `${JSON.stringify(value)} is never the value of "${condition.path}", which is ${KIND_NAMES[field.kind]} (a ${expected})`,
          expected === 'boolean' ? 'use true or false' : `use a ${expected}`,
        );
        return;
      }
      if (field.options && !field.options.includes(value as string)) {
        problem(at, `${JSON.stringify(value)} is not an option of "${condition.path}"`, `use one of: ${field.options.join(', ')}`);
        return;
      }
    }
    if (condition.oneOf?.length === 0) problem(`${at}.oneOf`, 'an empty oneOf never holds: the item would never show', 'list the values it shows for');
    else if (condition.equals !== undefined && condition.oneOf && !condition.oneOf.includes(condition.equals as string | number)) {
      problem(at, `equals ${JSON.stringify(condition.equals)} is not in oneOf: the condition never holds`, 'keep equals or oneOf');
    } else if (condition.filled === false && tested.some((value) => value !== '')) {
      problem(at, '"filled": false with equals or oneOf never holds: an empty answer equals none of them', 'remove "filled", or the values');
    }
  }

  // Conditions that depend on each other in a loop (the item shows when B shows, B when the item…).
  const targets = targets0;
  const dependsOn = new Map(targets.filter((t) => t.condition).map((t) => [t.path, t.condition!.path]));
  const reported = new Set<string>();
  for (const start of dependsOn.keys()) {
    const chain = [start];
    let next = dependsOn.get(start);
    while (next !== undefined && !chain.includes(next)) {
      chain.push(next);
      next = dependsOn.get(next);
    }
    if (next === undefined || (next === start && chain.length === 1)) continue;
    const loop = chain.slice(chain.indexOf(next));
    const key = [...loop].sort().join('|');
    if (reported.has(key)) continue;
    reported.add(key);
    const index = config.formItems.findIndex((item) => item.path === loop[0]);
    if (loop.length > 1)
      problem(
        index >= 0 ? `formItems[${index}].showOnCondition` : '(formItems)',
        `conditions depend on each other in a loop: ${[...loop, loop[0]].join(' → ')}`,
        'let one of them show without a condition',
      );
  }

  if (config.styleConfig.theme) problems.push(...themeContrastProblems(config.styleConfig.theme));

  // The last step is the thank-you (requirements §1), shown once the application is sent: a question on it
  // would never be sent (a thank-you step moved before the questions in the builder).
  // With `skipFinalStep` the last step is the one that submits, and may ask.
  const last = config.steps.length - 1;
  if (!config.skipFinalStep && last > 0) {
    config.steps[last]!.blocks.forEach((block, b) => {
      if (blockFields(block).length > 0) {
        problem(
          `steps[${last}].blocks[${b}]`,
          'the last step is the thank-you, shown after the application is sent: its question would never be sent',
          'move this question to an earlier step, or the thank-you step back to the end',
        );
      }
    });
  }

  // The age screen (requirements §20) comes before anything about the person: after the first step,
  // which may then ask nothing; and the adult age is not under the minimum.
  const screen = config.ageScreen;
  if (screen) {
    config.steps[0]!.blocks.forEach((block, b) => {
      if (blockFields(block).length > 0) {
        problem(
          `steps[0].blocks[${b}]`,
          'the age screen asks the month of birth before anything about the person, right after the first step: the first step may ask nothing',
          'move this question to a later step',
        );
      }
    });
    const highest = screen.minimumAge === 'byCountry' ? Math.max(...Object.values(DIGITAL_CONSENT_AGES), DEFAULT_DIGITAL_CONSENT_AGE) : screen.minimumAge;
    if (screen.adultAge < highest) {
      problem(
        'ageScreen.adultAge',
        `the adult age ${screen.adultAge} is under the minimum age${screen.minimumAge === 'byCountry' ? ' of some countries' : ''} (${highest})`,
        `set the adult age to ${highest} or more`,
      );
    }
  }

  return problems;
}

/**
 * What a page whose applications this server stores must ask besides what
 * {@link checkConfigSemantics} checks: the first name, last name and e-mail address every stored
 * application carries (requirements §5; the inbox lists and finds applications by them). A page that
 * submits nowhere (`requestUrl: ""`) or to another server needs none of them. Run by the server
 * at start-up and by `npm run check-config`.
 * @returns the problems, each with a JSON path and one line of reason; empty when none.
 */
export function storedPageProblems(config: WizardConfig): ConfigProblem[] {
  const url = config.requestUrl;
  if (url !== undefined && !url.startsWith('/api/syncPage/')) return [];
  const fields = pageFields(config);
  return (['firstName', 'lastName', 'emailAddress'] as const)
    .filter((field) => !fields.has(personalInfoPath(field)))
    .map((field) => ({
      path: 'steps',
      message: `no personal info block asks for "${field}", which every stored application carries (requirements §5), so every application would be refused`,
      hint: `add "${field}" to a personalInfo block's fields`,
    }));
}

/**
 * The problems of a parsed configuration that the schema and semantic checks leave to the place
 * it is served from: what a page whose applications this server stores must ask
 * (`storedPageProblems`), and that its `requestUrl` sends them to this server or to an origin the
 * operator allows (`submitOriginProblem`, `SUBMIT_ORIGINS_ALLOWED`). Read at start, by `npm run
 * check-config` and at publish (`publishCheck`).
 * @param submitOrigins - the origins allowed besides this server (`parseSubmitOrigins`).
 */
export function servedPageProblems(config: WizardConfig, submitOrigins: readonly string[]): ConfigProblem[] {
  const elsewhere = submitOriginProblem(config.requestUrl, submitOrigins);
  return [
    ...storedPageProblems(config),
    ...(elsewhere
      ? [
          {
            path: 'requestUrl',
            message: elsewhere,
            hint: 'remove requestUrl to store the applications here, or have the operator allow its origin (SUBMIT_ORIGINS_ALLOWED)',
          },
        ]
      : []),
  ];
}

/**
 * What a page may mean to do but reads as an oversight, printed by `npm run
 * check-config` as warnings: the page still starts and the command still succeeds.
 * - A page whose `lang` is not English that leaves messages at their English defaults (every
 *   message is shown to some applicant: an error, a status, a list's "No results").
 * - A non-English page that asks for a state or province and names none of them
 *   (`subdivisionNames`): its lists would show "California", "Quebec".
 * - A step whose HTML has no `<h1>`: each step is one screen, and a screen without a top-level
 *   heading is harder to find one's way in with a screen reader (axe's `page-has-heading-one`).
 * @returns the warnings, each with its JSON path, what was seen and what to do; empty when none.
 */
export function configWarnings(config: WizardConfig): ConfigProblem[] {
  const warnings: ConfigProblem[] = [];
  if (!/^en(?:-|$)/i.test(config.lang)) {
    const english = (Object.keys(DEFAULT_MESSAGES) as MessageKey[]).filter((key) => config.messages[key] === DEFAULT_MESSAGES[key]);
    if (english.length > 0)
      warnings.push({
        path: 'messages',
        message: `the page's language is "${config.lang}", but ${english.length} message${english.length === 1 ? ' is' : 's are'} still in English: ${english.join(', ')}`,
        hint: `give each of them a text in "${config.lang}" under "messages" (docs/configuration.md lists them)`,
      });
    if (pageFields(config).has(PROVINCE_PATH) && Object.keys(config.subdivisionNames ?? {}).length === 0)
      warnings.push({
        path: 'subdivisionNames',
        message: `the page's language is "${config.lang}" and it asks for a state or province, but names none of them, so its lists are in English`,
        hint: 'name them in the page\'s language by ISO 3166-2 code: "subdivisionNames": { "US-CA": "…", "CA-QC": "…" }',
      });
  }
  config.steps.forEach((step, index) => {
    step.blocks.forEach((block, blockIndex) => {
      for (const [key, text] of Object.entries(block.data as Record<string, unknown>)) {
        if ((key === 'label' || key === 'title' || key === 'textLabel') && typeof text === 'string' && /\*\s*$/.test(text))
          warnings.push({
            path: `steps[${index}].blocks[${blockIndex}].data.${key}`,
            message: `"${text}" ends with a typed "*": the wizard marks a required question by itself, from its rules, so it would show two marks, or mark a question that is not required`,
            hint: 'remove the "*"; a question is required by its "required" validator (the builder\'s Required)',
          });
      }
    });
    const html = step.blocks.map((block) => blockDefinition(block).shownHtml?.(block) ?? '').join('');
    if (!/<h1[\s>]/i.test(html))
      warnings.push({
        path: `steps[${index}]`,
        message: `step "${step.name}" has no <h1> heading`,
        hint: 'begin the step with an html block whose heading is an <h1> (one per step: each step is a screen of its own)',
      });
  });
  return warnings;
}
