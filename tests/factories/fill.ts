import { choiceQuestionKeys } from '../../src/server/inbox/answers';
import type { Store } from '../../src/server/store/store';
import { applicantPayload, defaultConfig } from './application';

const FIRST = ['Ada', 'Kai', 'Lena', 'Omar', 'Priya', 'Mateo', 'Yuki', 'Zoe', 'Ines', 'Noah'];
const LAST = ['Lovelace', 'Tanaka', 'Schmidt', 'Haddad', 'Patel', 'Garcia', 'Sato', 'Martin', 'Silva', 'Berg'];
const COUNTRIES = ['US', 'GB', 'FR', 'DE', 'JP', 'BR', 'IN', 'ES', 'CA', 'AU'];
const FAMILIAR = ['Super-Fan', 'Very familiar', "I've heard about it", 'Unfamiliar'];
const OFTEN = ['Every day', 'Most days', 'Sometimes', 'Rarely', 'Never'];
const PRODUCTS = [
  'Thinking Putty',
  'Slime Charmers',
  'Land of Dough',
  'Thinking Putty, Land of Dough',
  'Slime Charmers, Land of Dough',
  'Thinking Putty, Slime Charmers, Land of Dough',
];
const DREAMS = ['A putty castle', 'Unboxing on a rainy day', 'Stop-motion with dough', 'A slime science show'];

/**
 * Every survey answer of the default page for applicant `i`, varied: two selects (one in 1 000
 * never plays), a multi-select (left out by every fourth), a yes/no with its text, a text field.
 */
function answers(i: number, answerLength: number): Record<string, string> {
  const dream = `${DREAMS[i % DREAMS.length]!} #${i}`;
  return {
    howFamiliar: FAMILIAR[i % FAMILIAR.length]!,
    howOften: i % 1000 === 999 ? 'Never' : OFTEN[i % 4]!,
    ...(i % 4 === 3 ? {} : { whichProducts: PRODUCTS[i % PRODUCTS.length]! }),
    'campaign.value': i % 3 === 0 ? 'Yes' : 'No',
    ...(i % 3 === 0 ? { 'campaign.text': `Brand ${i % 50}` } : {}),
    dreamCampaign: dream.length < answerLength ? `${dream} ${'and more putty '.repeat(answerLength)}`.slice(0, answerLength).trimEnd() : dream,
  };
}

/**
 * Fills `store` with `rows` applications through its own write path (2 000 at a time), as the
 * inbox and export benchmarks and the export's tests use them: ten first names, distinct last names and e-mails, ten
 * countries, a TikTok handle for every third and an Instagram one for the others, followers spread
 * from 0 to 999 983, every survey answer of the default page, varied ({@link answers}); a tenth
 * are then shortlisted. The page's choice questions are recorded first, as the server records
 * them at start (their answers are counted per value in the tallies; free text is not).
 * @param answerLength - the free-text answer's length in characters (at most the long text's 5 000),
 *   for an export test that needs megabytes of CSV without tens of thousands of rows; by default
 *   a few words.
 * @returns the time it took, in whole seconds.
 */
export async function fillApplications(store: Store, rows: number, answerLength = 0): Promise<number> {
  const started = performance.now();
  await store.applications.countAnswersPerValue('creators', choiceQuestionKeys(defaultConfig()));
  const ids: string[] = [];
  for (let start = 0; start < rows; start += 2000) {
    const batch = [];
    for (let i = start; i < Math.min(rows, start + 2000); i++) {
      const payload = applicantPayload({
        firstName: FIRST[i % FIRST.length]!,
        lastName: `${LAST[(i * 7) % LAST.length]!}${i}`,
        email: `creator${i}@example.com`,
        country: COUNTRIES[(i * 3) % COUNTRIES.length]!,
        ...(i % 3 === 0 ? { tiktok: `tok${i}` } : { instagram: `insta${i}` }),
        followers: String((i * 7919) % 999_983),
        fields: answers(i, answerLength),
      });
      batch.push(store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload }).then((saved) => ids.push(saved.id)));
    }
    await Promise.all(batch);
  }
  // A tenth shortlisted, so a status filter has something to find.
  for (let start = 0; start < ids.length; start += 500) {
    await store.applications.setStatuses(
      ids.slice(start, start + 500).filter((_, index) => index % 10 === 0),
      'shortlisted',
      'filler@brand.example',
    );
  }
  return Math.round((performance.now() - started) / 1000);
}
