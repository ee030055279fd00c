import type { Store } from '../../src/server/store/store';
import { applicantPayload } from './application';

const FIRST = ['Ada', 'Kai', 'Lena', 'Omar', 'Priya', 'Mateo', 'Yuki', 'Zoe', 'Ines', 'Noah'];
const LAST = ['Lovelace', 'Tanaka', 'Schmidt', 'Haddad', 'Patel', 'Garcia', 'Sato', 'Martin', 'Silva', 'Berg'];
const COUNTRIES = ['US', 'GB', 'FR', 'DE', 'JP', 'BR', 'IN', 'ES', 'CA', 'AU'];

/**
 * Fills `store` with `rows` applications through its own write path (2 000 at a time), as the
 * inbox and export benchmarks and the export's tests use them: ten first names, distinct last names and e-mails, ten
 * countries, a TikTok handle for every third and an Instagram one for the others; a tenth are
 * then shortlisted.
 * @returns the time it took, in whole seconds.
 */
export async function fillApplications(store: Store, rows: number): Promise<number> {
  const started = performance.now();
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
      });
      batch.push(store.applications.save({ pageId: 'creators', emailAddress: payload.personalInfo.emailAddress, payload }).then((saved) => ids.push(saved.id)));
    }
    await Promise.all(batch);
  }
  // A tenth shortlisted, so a status filter has something to find.
  for (let start = 0; start < ids.length; start += 500) {
    await store.applications.setStatuses(ids.slice(start, start + 500).filter((_, index) => index % 10 === 0), 'shortlisted', 'filler@brand.example');
  }
  return Math.round((performance.now() - started) / 1000);
}
