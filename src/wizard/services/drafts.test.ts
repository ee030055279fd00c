import { describe, expect, it } from 'vitest';
import { createDraftStore } from './drafts';

describe('drafts', () => {
  it('saves, loads and clears per page in sessionStorage by default', () => {
    const store = createDraftStore('session', 'page-a');
    store.save({ step: 2, values: { personalInfo: { firstName: 'Ada' } } });
    expect(createDraftStore('session', 'page-a').load()).toEqual({ step: 2, values: { personalInfo: { firstName: 'Ada' } } });
    expect(createDraftStore('session', 'page-b').load()).toBeUndefined();
    expect(localStorage.length).toBe(0);
    store.clear();
    expect(store.load()).toBeUndefined();
  });

  it('uses localStorage with "local" and nothing with "off"', () => {
    createDraftStore('local', 'p').save({ step: 1, values: {} });
    expect(localStorage.length).toBe(1);
    const off = createDraftStore('off', 'p');
    off.save({ step: 1, values: {} });
    expect(off.load()).toBeUndefined();
    expect(sessionStorage.length).toBe(0);
  });

  it('ignores a corrupt or foreign draft', () => {
    sessionStorage.setItem('wizard:p:draft', '{not json');
    expect(createDraftStore('session', 'p').load()).toBeUndefined();
    sessionStorage.setItem('wizard:p:draft', JSON.stringify({ version: 99, step: 1, values: {} }));
    expect(createDraftStore('session', 'p').load()).toBeUndefined();
  });
});
