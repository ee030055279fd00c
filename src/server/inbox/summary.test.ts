import { describe, expect, it } from 'vitest';
import { rawDefaultConfig } from '../../../tests/factories/application';
import { parseWizardConfig } from '../../shared/config';
import { applicationSummary, summaryPlan, summaryRequest } from './summary';

/** The default page with `edit` applied to its raw JSON, parsed. */
function config(edit: (raw: ReturnType<typeof rawDefaultConfig>) => void = () => undefined) {
  const raw = rawDefaultConfig();
  edit(raw);
  const parsed = parseWizardConfig(raw);
  if (!parsed.config) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

describe('the summary plan', () => {
  it('counts the default page questions with choices and free text, in its order, and its platforms', () => {
    const plan = summaryPlan(config());
    expect(plan.questions.map(({ key, kind }) => [key, kind])).toEqual([
      ['fields.howFamiliar', 'choice'],
      ['fields.howOften', 'choice'],
      ['fields.whichProducts', 'multiple'],
      ['fields.campaign.value', 'choice'],
      ['fields.campaign.text', 'text'],
      ['fields.dreamCampaign', 'text'],
    ]);
    // Labels as the inbox shows them: plain text, without the required mark.
    expect(plan.questions[0]!.label).toBe("How familiar are you with Crazy Aaron's?");
    expect(plan.platforms).toEqual(['instagram', 'youtube', 'tiktok']);
    expect(summaryRequest(plan).questions[3]).toEqual({ key: 'campaign.value', kind: 'choice', options: ['Yes', 'No'] });
  });

  it('labels Yes and No with the page messages, counts a checkbox but never the agreement', () => {
    const plan = summaryPlan(
      config((raw) => {
        raw.messages = { ...raw.messages, yes: 'Oui', no: 'Non' };
        raw.steps[2].blocks.push({ component: 'checkbox', data: { path: 'fields.newsletter', label: '<b>Newsletter</b>' } });
        raw.steps[2].blocks.push({ component: 'checkbox', data: { path: 'agreement', label: 'I agree' } });
      }),
    );
    expect(plan.questions.find((question) => question.key === 'fields.campaign.value')!.options).toEqual([
      { value: 'Yes', label: 'Oui' },
      { value: 'No', label: 'Non' },
    ]);
    expect(plan.questions.at(-1)).toEqual({
      key: 'fields.newsletter',
      label: 'Newsletter',
      kind: 'choice',
      options: [
        { value: 'Yes', label: 'Oui' },
        { value: 'No', label: 'Non' },
      ],
    });
    expect(plan.questions.some((question) => question.key.includes('agreement'))).toBe(false);
  });

  it('lists every option with its count in the configuration order, and what no option holds as other', () => {
    const plan = summaryPlan(config());
    const summary = applicationSummary('creators', plan, {
      matched: 3,
      platforms: { instagram: 2 },
      questions: plan.questions.map((question) => ({ answered: 1, options: question.options.map((_, index) => index), other: 0 })),
    });
    expect(summary.platforms).toEqual([
      { platform: 'instagram', label: 'Instagram', count: 2 },
      { platform: 'youtube', label: 'YouTube', count: 0 },
      { platform: 'tiktok', label: 'TikTok', count: 0 },
    ]);
    expect(summary.questions[1]!.options.map((option) => [option.label, option.count])).toEqual([
      ['Every day', 0],
      ['Most days', 1],
      ['Sometimes', 2],
      ['Rarely', 3],
      ['Never', 4],
    ]);
  });
});
