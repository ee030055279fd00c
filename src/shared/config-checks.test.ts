import { describe, expect, it } from 'vitest';
import { rawDefaultConfig } from '../../tests/factories/application';
import { parseWizardConfig, type ConfigProblem } from './config';
import { configWarnings, storedPageProblems } from './config-checks';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The problems of the default configuration after `change`, as `path: message` lines. */
function problemsAfter(change: (raw: ReturnType<typeof rawDefaultConfig>) => void): ConfigProblem[] {
  const raw = rawDefaultConfig();
  change(raw);
  return parseWizardConfig(raw).problems ?? [];
}

const item = (raw: ReturnType<typeof rawDefaultConfig>, path: string) => raw.formItems.find((formItem: { path: string }) => formItem.path === path);

describe('the semantic checks of a configuration: each refusal names its JSON path and a reason', () => {
  it('the shipped configurations pass', () => {
    expect(problemsAfter(() => {})).toEqual([]);
  });

  it('a question on the last step, the thank-you, which is shown after the application is sent (a step moved in the builder)', () => {
    const moved = problemsAfter((raw) => raw.steps.unshift(raw.steps.pop()));
    expect(moved.length).toBeGreaterThan(0);
    expect(moved).toContainEqual(
      expect.objectContaining({
        path: expect.stringMatching(/^steps\[\d+\]\.blocks\[\d+\]$/),
        message: expect.stringContaining('the last step is the thank-you'),
      }),
    );
    // With skipFinalStep the last step submits: it may ask.
    expect(problemsAfter((raw) => (raw.skipFinalStep = true))).toEqual([]);
  });

  it('a form item or a condition whose path names no field of the page', () => {
    expect(problemsAfter((raw) => raw.formItems.push({ path: 'personalInfo.middleName', validators: ['required'] }))).toEqual([
      expect.objectContaining({ path: 'formItems[11].path', message: 'no block of the page asks for "personalInfo.middleName"' }),
    ]);
    expect(problemsAfter((raw) => (item(raw, 'fields.campaign.text').showOnCondition.path = 'fields.campain.value'))).toEqual([
      expect.objectContaining({ path: 'formItems[9].showOnCondition.path', message: 'no block of the page asks for "fields.campain.value"' }),
    ]);
  });

  it('a condition value of the wrong type, or no option of the answer it tests', () => {
    const [wrongType] = problemsAfter((raw) => (item(raw, 'fields.campaign.text').showOnCondition.equals = 'Yes'));
    expect(wrongType).toMatchObject({
      path: 'formItems[9].showOnCondition',
      message: expect.stringContaining('"Yes" is never the value of "fields.campaign.value"'),
    });
    expect(wrongType!.hint).toBe('use true or false');
    const [noOption] = problemsAfter((raw) =>
      raw.formItems.push({ path: 'fields.whichProducts', showOnCondition: { path: 'fields.howFamiliar', equals: 'Superfan' } }),
    );
    expect(noOption).toMatchObject({ path: 'formItems[11].showOnCondition', message: '"Superfan" is not an option of "fields.howFamiliar"' });
  });

  it('conditions that depend on each other in a loop', () => {
    const problems = problemsAfter((raw) => {
      item(raw, 'fields.howFamiliar').showOnCondition = { path: 'fields.howOften', filled: true };
      item(raw, 'fields.howOften').showOnCondition = { path: 'fields.howFamiliar', filled: true };
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message: 'conditions depend on each other in a loop: fields.howFamiliar → fields.howOften → fields.howFamiliar' }),
      ]),
    );
  });

  it('a required item that can never be filled: the province required for every country', () => {
    const problems = problemsAfter((raw) => (item(raw, 'personalInfo.provinceCode').showOnCondition = { path: 'personalInfo.countryCode', filled: true }));
    expect(problems).toEqual([
      expect.objectContaining({ path: 'formItems[6]', message: expect.stringContaining('the province is required for countries that have no provinces') }),
    ]);
    expect(problemsAfter((raw) => (item(raw, 'personalInfo.provinceCode').showOnCondition.oneOf = ['US', 'GB']))).toHaveLength(1);
  });

  it('duplicate item paths and option values', () => {
    expect(problemsAfter((raw) => raw.formItems.push({ path: 'fields.howOften', validators: ['required'] }))).toEqual([
      expect.objectContaining({ path: 'formItems[11].path', message: '"fields.howOften" has a form item already (formItems[8])' }),
    ]);
    expect(problemsAfter((raw) => raw.steps[2].blocks[1].data.options.push({ name: 'Fan', value: 'Super-Fan' }))).toEqual([
      expect.objectContaining({ path: 'steps[2].blocks[1].data.options[4].value', message: 'the option value "Super-Fan" is listed twice' }),
    ]);
    expect(problemsAfter((raw) => (raw.steps[2].blocks[2].data.path = 'fields.howFamiliar'))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'steps[2].blocks[2].data.path', message: '"fields.howFamiliar" is asked twice (first at steps[2].blocks[1])' }),
      ]),
    );
  });

  it("a select's own checks, from its block definition: a maxLength on a single select", () => {
    expect(problemsAfter((raw) => (raw.steps[2].blocks[1].data.maxLength = 2))).toEqual([
      expect.objectContaining({ path: 'steps[2].blocks[1].data.maxLength', message: 'maxLength limits a multi-select only' }),
    ]);
  });

  it('a validator argument out of range, or a validator that does not fit its field', () => {
    expect(problemsAfter((raw) => item(raw, 'fields.dreamCampaign').validators.push({ name: 'maxLength', value: -1.5 }))).toEqual([
      expect.objectContaining({ path: 'formItems[10].validators[2]', message: 'maxLength needs a whole number of 1 or more, not -1.5' }),
    ]);
    expect(problemsAfter((raw) => item(raw, 'fields.dreamCampaign').validators.push('maxLength'))).toEqual([
      expect.objectContaining({ path: 'formItems[10].validators[2]', message: 'maxLength needs a whole number of 1 or more' }),
    ]);
    expect(problemsAfter((raw) => raw.formItems.push({ path: 'platforms.instagram.followers', validators: ['email'] }))).toEqual([
      expect.objectContaining({ path: 'formItems[11].validators[0]', message: 'email does not fit a count (it has its own number rule)' }),
    ]);
    expect(problemsAfter((raw) => item(raw, 'fields.howFamiliar').validators.push('email'))).toEqual([
      expect.objectContaining({ path: 'formItems[7].validators[1]', message: 'email does not fit a choice from a list' }),
    ]);
  });

  it('the check-config line: path, reason and hint', () => {
    const [problem] = problemsAfter((raw) => item(raw, 'fields.dreamCampaign').validators.push({ name: 'maxLength', value: -1.5 }));
    expect(problem!.hint).toBe('write { "name": "maxLength", "value": 200 }');
  });

  it('outside review: block paths that overlap, live outside "fields." or cannot be a payload key; option values with spaces; conditions on values no country has', () => {
    const added = (block: unknown) => problemsAfter((raw) => raw.steps[2].blocks.push(block));
    expect(added({ component: 'textField', data: { path: 'fields.campaign.text', label: 'x' } })).toEqual([
      expect.objectContaining({ message: '"fields.campaign.text" is asked twice (first at steps[2].blocks[4])' }),
    ]);
    expect(added({ component: 'textField', data: { path: 'fields.howFamiliar.other', label: 'x' } })).toEqual([
      expect.objectContaining({ message: '"fields.howFamiliar.other" overlaps "fields.howFamiliar" (asked at steps[2].blocks[1])' }),
    ]);
    expect(added({ component: 'textField', data: { path: 'personalInfo.nickname', label: 'x' } })).toEqual([
      expect.objectContaining({ message: 'a textField block\'s answer travels under "fields.", not at "personalInfo.nickname"' }),
    ]);
    expect(added({ component: 'textField', data: { path: 'fields.my answer', label: 'x' } })).toHaveLength(1);
    expect(added({ component: 'textField', data: { path: 'fields.__proto__', label: 'x' } })).toHaveLength(1);
    expect(added({ component: 'textField', data: { path: `fields.${'a'.repeat(101)}`, label: 'x' } })).toHaveLength(1);
    expect(problemsAfter((raw) => raw.steps[1].blocks[2].data.platforms.push({ name: 'instagram' }))).toEqual([
      expect.objectContaining({ message: '"platforms.instagram.handle" is asked twice (first at steps[1].blocks[2])' }),
    ]);
    expect(problemsAfter((raw) => raw.steps[2].blocks[1].data.options.push({ name: 'Gold', value: 'Gold ' }))).toEqual([
      expect.objectContaining({ message: 'the option value "Gold " has spaces around it, which answers lose' }),
    ]);
    expect(problemsAfter((raw) => (item(raw, 'personalInfo.provinceCode').showOnCondition = { path: 'personalInfo.countryCode', equals: 'USA' }))).toEqual(
      expect.arrayContaining([expect.objectContaining({ message: '"USA" is not an option of "personalInfo.countryCode"' })]),
    );
  });

  it('contradictions: validators no answer passes together, conditions that never hold, a province without a country', () => {
    expect(problemsAfter((raw) => item(raw, 'fields.dreamCampaign').validators.push('email', 'digits'))).toEqual([
      expect.objectContaining({
        path: 'formItems[10].validators',
        message: 'no answer is both email and digits, so "fields.dreamCampaign" could never be filled',
      }),
    ]);
    expect(
      problemsAfter((raw) => (item(raw, 'fields.campaign.text').showOnCondition = { path: 'fields.campaign.value', equals: true, filled: false })),
    ).toEqual([
      expect.objectContaining({
        path: 'formItems[9].showOnCondition',
        message: '"filled": false with equals or oneOf never holds: an empty answer equals none of them',
      }),
    ]);
    expect(
      problemsAfter((raw) => (item(raw, 'personalInfo.provinceCode').showOnCondition = { path: 'personalInfo.countryCode', equals: 'US', oneOf: ['CA'] })),
    ).toEqual([expect.objectContaining({ message: 'equals "US" is not in oneOf: the condition never holds' })]);
    const withoutCountry = problemsAfter((raw) => {
      const block = raw.steps[1].blocks.find((b: { component: string }) => b.component === 'personalInfo');
      block.data.fields = block.data.fields.filter((field: string) => field !== 'countryCode');
      raw.formItems = raw.formItems.filter(
        (formItem: { path: string }) => formItem.path !== 'personalInfo.countryCode' && formItem.path !== 'personalInfo.provinceCode',
      );
    });
    expect(withoutCountry).toEqual([
      expect.objectContaining({ message: 'provinceCode is asked without countryCode, so it never shows (it lists the states of the country chosen)' }),
    ]);
  });

  it('outside review: names the payload reserves, conditions on a later step or on counts, validators twice, options that read as others', () => {
    const added = (block: unknown) => problemsAfter((raw) => raw.steps[2].blocks.push(block));
    expect(added({ component: 'textField', data: { path: 'fields.platformFilled', label: 'x' } })).toEqual([
      expect.objectContaining({ message: '"fields.platformFilled" is the platform-filled flag\'s name, never sent: the answer would be lost' }),
    ]);
    expect(added({ component: 'textField', data: { path: 'fields.agreement', label: 'x' } })).toEqual([
      expect.objectContaining({ message: '"fields.agreement" is the agreement flag, never sent (requirements §7): only a checkbox may sit there' }),
    ]);
    expect(added({ component: 'checkbox', data: { path: 'fields.agreement', label: 'x' } })).toEqual([]);
    expect(added({ component: 'textField', data: { path: 'fields.single.linkedin.handle', label: 'x' } })).toHaveLength(1);
    expect(added({ component: 'textField', data: { path: 'fields.followers', label: 'x' } })).toEqual([
      expect.objectContaining({ message: 'an answer named "followers" is read as a platform\'s count (grouping separators removed)' }),
    ]);

    expect(problemsAfter((raw) => (item(raw, 'personalInfo.lastName').showOnCondition = { path: 'fields.howOften', equals: 'Every day' }))).toEqual([
      expect.objectContaining({ message: expect.stringContaining('depends on "fields.howOften", asked later') }),
    ]);
    expect(problemsAfter((raw) => (item(raw, 'fields.dreamCampaign').showOnCondition = { path: 'platforms.instagram.followers', equals: '12k' }))).toEqual([
      expect.objectContaining({ message: expect.stringContaining('is a count, typed as the applicant likes') }),
    ]);
    expect(
      problemsAfter((raw) => item(raw, 'fields.dreamCampaign').validators.push({ name: 'maxLength', value: 10 }, { name: 'maxLength', value: 20 })),
    ).toEqual([expect.objectContaining({ message: 'maxLength is listed twice' })]);

    const products = (raw: ReturnType<typeof rawDefaultConfig>) =>
      raw.steps[2].blocks.find((block: { data: { path?: string } }) => block.data.path === 'fields.whichProducts').data;
    expect(problemsAfter((raw) => products(raw).options.push({ name: 'Both', value: 'Thinking Putty, Slime Charmers' }))).toEqual([
      expect.objectContaining({
        message:
          'the option value "Thinking Putty, Slime Charmers" reads as "Thinking Putty" and more: a multi-select\'s answers are joined with ", " in the payload',
      }),
    ]);
    expect(problemsAfter((raw) => products(raw).options.push({ name: 'Glow, in the dark', value: 'Glow, in the dark' }))).toEqual([]);
    expect(problemsAfter((raw) => products(raw).options.push({ name: 'Thinking Putty', value: 'tp2' }))).toEqual([
      expect.objectContaining({ message: 'the option name "Thinking Putty" is listed twice, so applicants cannot tell the two apart' }),
    ]);
  });

  it('second outside review: conditions on answers never sent or themselves conditional, conditions on controls that ignore them, two platforms blocks, numeric keys, a foreign requestUrl, sizes past the payload\u2019s limits, validators at odds with the block\u2019s own rule', () => {
    const added = (block: unknown) => problemsAfter((raw) => raw.steps[2].blocks.push(block));
    const messages = (problems: ConfigProblem[]) => problems.map((problem) => problem.message);
    expect(messages(added({ component: 'checkbox', data: { path: 'agreement', label: 'x' } }))).toEqual([]);
    expect(
      messages(
        problemsAfter((raw) => {
          raw.steps[2].blocks.push({ component: 'checkbox', data: { path: 'agreement', label: 'x' } });
          item(raw, 'fields.dreamCampaign').showOnCondition = { path: 'agreement', equals: true, effect: 'disable' };
        }),
      ),
    ).toEqual([expect.stringContaining('"agreement" is never sent')]);
    expect(
      messages(
        problemsAfter((raw) =>
          raw.formItems.push({ path: 'fields.brandCount', validators: [], showOnCondition: { path: 'fields.campaign.text', filled: true } }),
        ),
      ),
    ).toEqual(expect.arrayContaining([expect.stringContaining('"fields.campaign.text" is itself shown by a condition')]));
    expect(
      messages(
        problemsAfter((raw) =>
          raw.formItems.push({ path: 'platforms.tiktok.handle', validators: [], showOnCondition: { path: 'personalInfo.countryCode', equals: 'US' } }),
        ),
      ),
    ).toEqual([expect.stringContaining('is always shown (its control has no condition)')]);
    expect(messages(added({ component: 'platforms', data: { title: 'More', platforms: [{ name: 'twitch' }] } }))).toEqual([
      expect.stringContaining('a page has one platforms block'),
    ]);
    expect(messages(added({ component: 'textField', data: { path: 'fields.survey.1', label: 'x' } }))).toEqual([expect.stringContaining('not digits alone')]);
    expect(messages(problemsAfter((raw) => (raw.requestUrl = '/api/syncPage/other')))).toEqual([expect.stringContaining('to page "other"')]);
    expect(
      messages(
        added({
          component: 'select',
          data: {
            path: 'fields.many',
            label: 'x',
            multiple: true,
            options: Array.from({ length: 60 }, (_, i) => ({ name: `o${i}`, value: `${i}`.padEnd(90, 'x') })),
          },
        }),
      ),
    ).toEqual([expect.stringContaining('the options picked together make')]);
    expect(messages(added({ component: 'yesNo', data: { path: `fields.${'y'.repeat(98)}`, label: 'x', textLabel: 'y' } }))).toEqual(
      expect.arrayContaining([expect.stringContaining('.value" is longer than 100 characters')]),
    );
    expect(messages(problemsAfter((raw) => item(raw, 'personalInfo.emailAddress').validators.push('digits')))).toEqual([
      expect.stringContaining('no answer is both email and digits'),
    ]);
    // A platform's own user-name rule: an X name has no dot (never a website address), a Snapchat name starts with a letter.
    const onPlatform = (name: string, validators: string[]) =>
      problemsAfter((raw) => {
        raw.steps[1].blocks[2].data.platforms.push({ name });
        raw.formItems.push({ path: `platforms.${name}.handle`, validators });
      }).map((problem) => problem.message);
    expect(onPlatform('twitter', ['url'])).toEqual(['no Twitter user name passes url, so "platforms.twitter.handle" could never be filled']);
    expect(onPlatform('snapchat', ['digits', 'zip'])).toEqual([
      'no Snapchat user name passes digits, so "platforms.snapchat.handle" could never be filled',
      'no Snapchat user name passes zip, so "platforms.snapchat.handle" could never be filled',
    ]);
    expect(onPlatform('twitter', ['digits'])).toEqual([]);
    expect(onPlatform('facebook', ['url'])).toEqual([]);
  });

  it('a page whose applications this server stores asks for first name, last name and e-mail (server start and check-config)', () => {
    const withoutNames = (requestUrl?: string) => {
      const raw = rawDefaultConfig();
      raw.steps[1].blocks.find((b: { component: string }) => b.component === 'personalInfo').data.fields = ['phone', 'countryCode', 'provinceCode'];
      raw.formItems = raw.formItems.filter(
        (formItem: { path: string }) => !['personalInfo.firstName', 'personalInfo.lastName', 'personalInfo.emailAddress'].includes(formItem.path),
      );
      if (requestUrl !== undefined) raw.requestUrl = requestUrl;
      return parseWizardConfig(raw).config!;
    };
    expect(storedPageProblems(withoutNames()).map((problem) => problem.message)).toEqual([
      expect.stringContaining('"firstName"'),
      expect.stringContaining('"lastName"'),
      expect.stringContaining('"emailAddress"'),
    ]);
    expect(storedPageProblems(withoutNames(''))).toEqual([]);
    expect(storedPageProblems(withoutNames('https://forms.example/submit'))).toEqual([]);
    expect(storedPageProblems(parseWizardConfig(rawDefaultConfig()).config!)).toEqual([]);
  });
});

describe('what check-config warns about: sound, but reads as an oversight', () => {
  const parsed = (raw: unknown) => {
    const result = parseWizardConfig(raw);
    if (!result.config) throw new Error(JSON.stringify(result.problems));
    return result.config;
  };
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const shipped = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as ReturnType<typeof rawDefaultConfig>;

  it('the shipped pages have none: every step has its <h1>, the French page has no English left', () => {
    expect(configWarnings(parsed(shipped('config/wizard.json')))).toEqual([]);
    expect(configWarnings(parsed(shipped('config/examples/createurs-fr.json')))).toEqual([]);
  });

  it('a page in another language that leaves messages, or state and province names, in English', () => {
    const french = shipped('config/examples/createurs-fr.json') as ReturnType<typeof rawDefaultConfig> & {
      messages: Record<string, string>;
      subdivisionNames?: unknown;
    };
    delete french.messages.zip;
    delete french.messages.back;
    delete french.subdivisionNames;
    expect(configWarnings(parsed(french))).toEqual([
      expect.objectContaining({ path: 'messages', message: 'the page\'s language is "fr", but 2 messages are still in English: zip, back' }),
      expect.objectContaining({ path: 'subdivisionNames', hint: expect.stringContaining('"US-CA"') }),
    ]);
    // An English page may keep them.
    const english = rawDefaultConfig();
    english.lang = 'en-GB';
    expect(configWarnings(parsed(english))).toEqual([]);
  });

  it('a step without an <h1>', () => {
    const raw = rawDefaultConfig();
    raw.steps[1]!.blocks[0]!.data.html = '<h2>Introduce yourself</h2>';
    expect(configWarnings(parsed(raw))).toEqual([expect.objectContaining({ path: 'steps[1]', message: 'step "Introduce Yourself" has no <h1> heading' })]);
  });

  it('a label or title with a typed "*": the required mark comes from the rules', () => {
    const raw = rawDefaultConfig();
    const platforms = raw.steps[1]!.blocks.find((block: { component: string }) => block.component === 'platforms')!;
    platforms.data.title = 'Platforms you share content on *';
    expect(configWarnings(parsed(raw))).toEqual([
      expect.objectContaining({
        path: `steps[1].blocks[${raw.steps[1]!.blocks.indexOf(platforms)}].data.title`,
        hint: expect.stringContaining('remove the "*"'),
      }),
    ]);
  });
});
