import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../tests/factories/application';
import { pageDescription } from './render-first-step';

describe('pageDescription', () => {
  it('is the configured description, trimmed', () => {
    expect(pageDescription({ ...defaultConfig(), description: '  Apply to our campaigns.  ' })).toBe('Apply to our campaigns.');
  });

  it("defaults to the first step's text, its heading ended as a sentence, and cuts a long one at a word with an ellipsis", () => {
    const config = defaultConfig();
    expect(pageDescription(config)).toBe(
      "Become a Crazy Aaron's creator. Love Thinking Putty? Apply in two quick steps to be considered for our upcoming influencer campaigns.",
    );
    const long = {
      ...config,
      steps: [{ ...config.steps[0]!, blocks: [{ component: 'html' as const, data: { html: `<p>${'word '.repeat(60)}</p>` } }] }, ...config.steps.slice(1)],
    };
    const description = pageDescription(long);
    expect(description.length).toBeLessThanOrEqual(160);
    expect(description).toMatch(/^word( word)*…$/);
  });

  it('is the title when the first step has no text', () => {
    const config = defaultConfig();
    const empty = { ...config, steps: [{ ...config.steps[0]!, blocks: [] }, ...config.steps.slice(1)] };
    expect(pageDescription(empty)).toBe(config.title);
  });
});
