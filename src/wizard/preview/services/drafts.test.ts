import { describe, expect, it } from 'vitest';
import { createDraftStore, previewAnswers, setPreviewDraft } from './drafts';

describe("the preview's draft store", () => {
  it('starts the next mount on the step asked for, even when the wizard it replaces saves its own step first', () => {
    const store = createDraftStore('session', 'creators');
    store.save({ step: 1, values: { firstName: 'Ada' } });
    setPreviewDraft({ step: 0, values: previewAnswers() });
    // The wizard being replaced saves once more (its save waits a frame, or for typing to pause):
    // what was typed meanwhile is kept, its step is not.
    store.save({ step: 1, values: { firstName: 'Ada', lastName: 'Love' } });
    expect(store.load()).toEqual({ step: 0, values: { firstName: 'Ada', lastName: 'Love' } });
    // Once read, the new wizard's own saves count.
    store.save({ step: 2, values: { firstName: 'Ada', lastName: 'L' } });
    expect(store.load()).toEqual({ step: 2, values: { firstName: 'Ada', lastName: 'L' } });
    expect(previewAnswers()).toEqual({ firstName: 'Ada', lastName: 'L' });
  });
});
